import { data, redirect } from "react-router";
import type { DB } from "~/db/database.server";
import { can, type Actor } from "~/domain/identity/permissions";
import { OPERATION_PERMISSIONS, previewOperation } from "~/domain/payments/operations.server";
import { REASON_MAX_LENGTH, reasonOf, runRowAction } from "~/domain/payments/transaction-actions.server";
import { withParams } from "~/domain/transactions/filters";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount, parseAmount } from "~/lib/money";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { messageOf, statusOf } from "~/web/outcomes.server";

export const OPERATION_KINDS = ["refund", "capture", "void"] as const;
export type OperationKindName = (typeof OPERATION_KINDS)[number];
export const isOperationKind = (value: unknown): value is OperationKindName =>
  OPERATION_KINDS.includes(value as OperationKindName);

/**
 * The refund / capture / void dialog's data for one transaction (of a duplicate payment when
 * `attemptId` is set), its codes written out in the page's language: what is available, and what
 * the confirmation step repeats (the order, the customer, what was paid and already refunded).
 */
export async function operationDialogOf(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    transactionId: string;
    kind: OperationKindName;
    attemptId?: string | null;
    lang: Language;
  },
) {
  if (!can(input.actor, OPERATION_PERMISSIONS[input.kind])) return null;
  const preview = await previewOperation(db, {
    merchantId: input.merchantId,
    transactionId: input.transactionId,
    kind: input.kind,
    actor: input.actor,
    attemptId: input.attemptId,
  });
  if (!preview) return null;
  const row = await db
    .selectFrom("transactions")
    .select([
      "customer_first_name",
      "customer_last_name",
      "customer_email",
      "customer_phone",
      "paid_amount",
      "refunded_amount",
      "currency_code",
    ])
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.transactionId)
    .executeTakeFirstOrThrow();
  const { blocked, checked: _checked, ...rest } = preview;
  const name = [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ");
  const contact = row.customer_email ?? row.customer_phone;
  return {
    ...rest,
    id: input.transactionId,
    kind: input.kind,
    blocked: blocked ? messageOf(blocked, input.lang) : null,
    availableText: formatAmount(preview.availableMinor, row.currency_code, input.lang),
    confirmation: {
      customer: name && contact ? `${name} (${contact})` : name || contact || null,
      paid: formatAmount(row.paid_amount, row.currency_code, input.lang),
      refunded: formatAmount(row.refunded_amount, row.currency_code, input.lang),
    },
    reasonMaxLength: REASON_MAX_LENGTH,
  };
}

export type OperationDialogResult =
  | { dialogError: string; amount: string; reason?: string }
  | { review: { amount: string; formatted: string }; reason?: string };

/**
 * The dialog's two posts (intent=operation): `step=review` checks the amount without moving money
 * and answers the review; `step=confirm` runs it with the optional reason, then goes back to the
 * page the dialog was opened on with `done` set. Both plain forms, so it works without JavaScript.
 */
export async function operationDialogAction(
  db: DB,
  input: {
    form: FormData;
    url: URL;
    actor: Actor;
    merchantId: number;
    lang: Language;
    baseUrl: string;
    addresses: PlatformAddresses;
    plugin?: string;
  },
) {
  const { form, lang } = input;
  const t = translator(lang);
  const id = String(form.get("id") ?? "");
  const kind = form.get("kind");
  if (!isOperationKind(kind)) return data({ dialogError: t("actions.not_available"), amount: "" }, { status: 400 });
  if (!can(input.actor, OPERATION_PERMISSIONS[kind]))
    return data({ dialogError: t("operations.errors.forbidden"), amount: "" }, { status: 403 });
  const amount = String(form.get("amount") ?? "").slice(0, 32);
  const attemptId = String(form.get("attempt") ?? "") || null;
  const typedReason = String(form.get("reason") ?? "");
  if (typedReason.length > REASON_MAX_LENGTH) {
    return data(
      {
        review: { amount, formatted: amount },
        reason: typedReason.slice(0, REASON_MAX_LENGTH),
        reasonError: t("operations.errors.reason", { max: REASON_MAX_LENGTH }),
      },
      { status: 400 },
    );
  }
  const reason = reasonOf(typedReason) ?? undefined;
  const preview = await previewOperation(db, {
    merchantId: input.merchantId,
    transactionId: id,
    kind,
    amount,
    actor: input.actor,
    attemptId,
  });
  if (!preview) return data({ dialogError: t("api.not_found"), amount }, { status: 404 });
  if (form.get("step") !== "confirm") {
    if (preview.blocked) return data({ dialogError: messageOf(preview.blocked, lang), amount }, { status: 409 });
    if (!preview.checked?.ok)
      return data(
        { dialogError: preview.checked ? messageOf(preview.checked, lang) : t("operations.errors.amount"), amount },
        { status: 400 },
      );
    const minor = parseAmount(preview.checked.amount, preview.currency);
    const formatted = minor.ok
      ? formatAmount(minor.minor, preview.currency, lang)
      : `${preview.checked.amount} ${preview.currency}`;
    return { review: { amount: preview.checked.amount, formatted }, reason };
  }
  const outcome = await runRowAction(db, {
    merchantId: input.merchantId,
    user: input.actor,
    transactionId: id,
    action: kind,
    amount,
    attemptId,
    reason,
    lang,
    baseUrl: input.baseUrl,
    addresses: input.addresses,
    plugin: input.plugin,
  });
  if (!outcome.ok)
    return data({ dialogError: messageOf(outcome, lang), amount, reason }, { status: statusOf(outcome) });
  const back = new URLSearchParams(input.url.search);
  back.delete("operation");
  back.delete("id");
  back.delete("attempt");
  back.set("done", outcome.requestId !== undefined ? "requested" : outcome.checking ? "checking" : kind);
  // Back to the page the dialog was opened on (the list, or one transaction's details).
  throw redirect(`${input.url.pathname}${withParams(`?${back}`, {})}`);
}
