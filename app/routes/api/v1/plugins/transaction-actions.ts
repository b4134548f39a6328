import type { Route } from "./+types/transaction-actions";
import {
  actionContextOf,
  isRowAction,
  REASON_MAX_LENGTH,
  reasonOf,
  rowActions,
  runRowAction,
} from "~/domain/payments/transaction-actions.server";
import { describeRowAction } from "~/presentation/transactions.server";
import { doneStatusOf, messageOf, statusOf } from "~/web/outcomes.server";
import { platformAddresses } from "~/web/addresses.server";
import { apiDetail, apiJson, methodNotAllowed, readBody, requireApiPermission } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { callerOf, operationReferenceOf } from "~/web/idempotency.server";
import {
  actionBaseUrl,
  findSectionRow,
  requireTransactionSection,
  respondOnce,
} from "~/sections/transaction-api.server";

/**
 * GET .../actions/{id}/: the actions the signed-in user may take on this row now (dashboard spec
 * §3 Action: value, url, display_name, icon, available_amount), each with the URL to post to.
 * GET .../actions/{id}/{action}/: that one action, if available.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, section, lang } = await requireTransactionSection(request, context, params.plugin);
  requireApiPermission(request, user, "view_paymenttransaction");
  const row = await findSectionRow(db, user, section, params.id);
  if (!row) return apiDetail(request, "api.not_found", 404);
  const base = actionBaseUrl(section.key, row.id);
  const actions = rowActions(row, user, await actionContextOf(db, user.merchantId));
  const described = actions.map((action) => describeRowAction(action, row, lang, `${base}/${action}/`));
  if (params.action === undefined) return apiJson(described);
  const one = described.find((action) => action.value === params.action);
  return one ? apiJson(one) : apiDetail(request, "actions.not_available", 404);
}

/** An amount as sent: a decimal string, a JSON number, or null/absent (all that is available). */
function amountOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value.slice(0, 32);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * POST .../actions/{id}/{action}/ with {amount} for a refund or capture (a decimal string; null
 * or absent takes all that is available) and, to refund or void a duplicate payment, its
 * {attempt_id}; an optional {reason} (text, at most 500 characters) goes to the audit log and, when
 * the operation waits for approval, to the checker: 200 {message} when done, 201 {message} when it became a request waiting for
 * approval, 202 {message} when the gateway's answer is still being checked, 400/403/404/409/502
 * {detail}. Idempotency-Key accepted.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, section, lang } = await requireTransactionSection(request, context, params.plugin);
  const name = params.action ?? "";
  if (!isRowAction(name)) return apiDetail(request, "actions.not_available", 404);
  const body = await readBody(request);
  const amount = amountOf(body.amount);
  if (amount === undefined)
    return apiJson(
      { detail: translator(lang)("operations.errors.amount"), amount: [translator(lang)("operations.errors.amount")] },
      400,
    );
  const attemptId = typeof body.attempt_id === "string" ? body.attempt_id.slice(0, 64) : null;
  if (
    body.reason !== undefined &&
    body.reason !== null &&
    (typeof body.reason !== "string" || body.reason.length > REASON_MAX_LENGTH)
  ) {
    const message = translator(lang)("operations.errors.reason", { max: REASON_MAX_LENGTH });
    return apiJson({ detail: message, reason: [message] }, 400);
  }
  const reason = reasonOf(body.reason);
  const scope = `transaction.action.${params.id}.${name}`;
  // The reason is part of what a key stands for only when one is given: a retry without one is the same request as before.
  const identity = reason === null ? { amount, attempt_id: attemptId } : { amount, attempt_id: attemptId, reason };
  return respondOnce(request, db, user, scope, identity, async () => {
    const outcome = await runRowAction(db, {
      merchantId: user.merchantId,
      user,
      transactionId: params.id,
      action: name,
      amount,
      lang,
      baseUrl: linkBaseUrl(),
      addresses: platformAddresses(request),
      plugin: section.key,
      attemptId,
      operationReference: operationReferenceOf(request, user.merchantId, callerOf(user), scope),
      reason,
    });
    const message = messageOf(outcome, lang);
    if (outcome.ok) return { status: doneStatusOf(outcome), body: { message } };
    return {
      status: statusOf(outcome),
      body: { detail: message, ...(outcome.field ? { [outcome.field]: [message] } : {}) },
    };
  });
}
