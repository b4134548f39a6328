import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import type { BulkListRow, BulkSummary, DispatchLogRow, TransactionLogRow } from "../domain/bulk-queries.server";
import { wordLogError } from "./bulk-upload.server";

/** The bulk API's answers: field names as the pages' routes name things (uploads, dispatch logs, transaction logs). */

export function serializeBulk(bulk: BulkListRow | BulkSummary) {
  return {
    id: bulk.id,
    file_name: bulk.file_name,
    rows: bulk.row_count,
    created: bulk.created,
    messages: bulk.messages,
    sent: bulk.sent,
    failed: bulk.failed,
    paid: bulk.paid,
    dispatching: bulk.dispatching,
    send_email: Boolean(bulk.send_email),
    send_sms: Boolean(bulk.send_sms),
    language: bulk.lang,
    schedule: bulk.schedule,
    next_run_at: bulk.next_run_at,
    runs: bulk.runs,
    created_by: bulk.created_by_name,
    created_at: bulk.created_at,
    ended_at: bulk.ended_at,
    ...("collected" in bulk
      ? {
          amount_collected: bulk.collected.map((entry) => ({
            currency_code: entry.currency,
            value: toDecimalString(entry.amount, entry.currency),
          })),
        }
      : {}),
  };
}

export function serializeDispatchLog(log: DispatchLogRow) {
  return {
    id: log.id,
    kind: log.kind,
    status: log.status,
    total: log.total,
    sent: log.sent,
    failed: log.failed,
    requests_created: log.requests_created,
    created_by: log.created_by_name,
    created_at: log.created_at,
    started_at: log.started_at,
    finished_at: log.finished_at,
  };
}

export function serializeTransactionLog(log: TransactionLogRow, lang: Language) {
  return {
    id: log.id,
    row: log.row_number,
    transaction_id: log.transaction_id,
    order_no: log.order_no,
    state: log.state,
    recipient: log.recipient,
    channel: log.channel,
    result: log.result,
    error: wordLogError(log.error, lang) || null,
    sent_at: log.sent_at,
  };
}
