import type { Route } from "./+types/transaction-partial-update";
import { childOperations, findTransactionRow } from "~/domain/transactions/list.server";
import {
  CHANGEABLE_FIELDS,
  updateTransactionFields,
  type TransactionChanges,
} from "~/domain/payments/transaction-updates.server";
import { serializeTransaction } from "~/presentation/transactions.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { apiErrors, methodNotAllowed, readBody, requireApiPermission } from "~/web/api.server";
import { requireTransactionSection, respondOnce, serializeContextFor } from "~/sections/transaction-api.server";

function parseChanges(
  body: Record<string, unknown>,
): { ok: true; changes: TransactionChanges } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const changes: TransactionChanges = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(CHANGEABLE_FIELDS as readonly string[]).includes(name)) {
      errors[name] = ["api.read_only_field"];
    } else if (name === "seen") {
      if (typeof value === "boolean") changes.seen = value;
      else if (value === "true" || value === "false") changes.seen = value === "true";
      else errors.seen = ["api.invalid_boolean"];
    } else if (value === null || value === "") {
      changes.attachment = null;
    } else if (typeof value === "string" && value.length <= 300) {
      changes.attachment = value;
    } else {
      errors.attachment = ["attachment.errors.unknown"];
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, changes };
}

/**
 * PATCH plugins/{plugin}/transaction/partial-update/{id} with any of {seen, attachment}: the
 * fields a merchant may change after the fact (see CHANGEABLE_FIELDS); any other field is refused
 * as read-only. Needs change_paymenttransaction; audited; Idempotency-Key accepted. Answers the
 * transaction as it is now.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user, db, section, lang } = await requireTransactionSection(request, context, params.plugin);
  requireApiPermission(request, user, "change_paymenttransaction");
  const body = await readBody(request);
  const parsed = parseChanges(body);
  if (!parsed.ok) return apiErrors(request, parsed.errors);
  return respondOnce(request, db, user, `transaction.partial_update.${params.id}`, body, async () => {
    const outcome = await updateTransactionFields(db, {
      merchantId: user.merchantId,
      plugin: section.key,
      transactionId: params.id,
      actor: { id: user.id, username: user.username },
      changes: parsed.changes,
    });
    if (!outcome.ok) {
      const message = messageOf(outcome, lang);
      return {
        status: statusOf(outcome),
        body: statusOf(outcome) === 404 ? { detail: message } : { [outcome.field ?? "non_field_errors"]: [message] },
      };
    }
    const row = await findTransactionRow(
      db,
      { merchantId: user.merchantId, plugin: section.key, deleted: false },
      params.id,
    );
    const [serializer, operations] = await Promise.all([
      serializeContextFor(db, user, lang),
      childOperations(db, user.merchantId, [params.id]),
    ]);
    return { status: 200, body: serializeTransaction(row!, serializer, operations) };
  });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
