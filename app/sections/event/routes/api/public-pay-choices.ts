import type { Route } from "./+types/public-pay-choices";
import { defaultChoice } from "~/domain/payments/pay-page.server";
import { translator } from "~/lib/i18n.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { eventPayChoices, publicEventView } from "../../domain/public-events.server";
import { publicApiLanguage, requirePublicEvent } from "./public-api.server";

/**
 * POST {"event": slug, "ticket"?, "quantity"?}: the payment methods a paid booking of the event may
 * use, with logos, priced (as the pay API's pay-choices) for the ticket and quantity when given.
 * A free event has none.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const body = await readBody(request);
  const event = await requirePublicEvent(db, request, body.event);
  const lang = publicApiLanguage(request);
  const view = await publicEventView(db, event, lang);
  const ticket = view.tickets.find((one) => String(one.id) === String(body.ticket ?? ""));
  const quantity = /^\d{1,3}$/.test(String(body.quantity ?? "")) ? Math.max(1, Number(body.quantity)) : 1;
  const choices = await eventPayChoices(db, event, ticket ? Number(ticket.price) * quantity : 0, lang);
  const t = translator(lang);
  const decimal = (minor: number) => toDecimalString(minor, event.currency_code);
  return apiJson({
    pay_choices: choices.map((choice) => ({
      gateway: choice.gateway,
      gateway_code: choice.gateway_code,
      value: choice.gateway_code,
      logo_url: choice.logo_url,
      amount: decimal(choice.amount),
      base_amount: decimal(choice.base_amount),
      fee: decimal(choice.fee),
      fee_description: choice.fee > 0 ? t("pay.fee_line", { fee: formatAmount(choice.fee, choice.currency_code, lang) }) : t("pay.no_fee"),
      currency_code: choice.currency_code,
      delivery_charges: null,
      button_verb: t("pay.pay_now", { amount: "" }).trim(),
    })),
    default_pay_choice: defaultChoice(choices)?.gateway_code ?? null,
  });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
