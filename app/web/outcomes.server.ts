import type { Language } from "~/lib/i18n";
import type { Refusal, TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";

/**
 * How the pages and the API answer the domain's codes: an HTTP status for each refusal (400 when
 * not listed) and its message in the reader's language. A code is its message's translation key,
 * unless it is listed in TEXTS.
 */
const STATUSES: Readonly<Record<string, number>> = {
  "api.not_found": 404,
  "actions.not_available": 403,
  "operations.errors.forbidden": 403,
  "operations.errors.own_request": 403,
  "tickets.errors.forbidden": 403,
  "tickets.errors.own_request": 403,
  "operations.errors.request_pending": 409,
  "operations.errors.decided_meanwhile": 409,
  "tickets.errors.request_pending": 409,
  "tickets.errors.decided_meanwhile": 409,
  "operations.errors.gateway": 502,
  "operations.errors.other_request": 422,
};

/** Codes that share another code's words. */
const TEXTS: Readonly<Record<string, string>> = {
  "actions.not_applicable": "actions.not_available",
};

export function statusOf(refusal: Pick<Refusal, "code">): number {
  return STATUSES[refusal.code] ?? 400;
}

/** The translation key of an outcome's message. */
export function keyOf(outcome: { code: string }): string {
  return TEXTS[outcome.code] ?? outcome.code;
}

export function messageOf(outcome: { code: string; params?: TextParams }, lang: Language): string {
  return describe(keyOf(outcome), outcome.params, lang);
}

/**
 * A done outcome's status: 201 when it created something (a request waiting for approval), 202
 * when it was sent and its result is still being checked, else 200.
 */
export function doneStatusOf(outcome: { requestId?: number; checking?: true }): 200 | 201 | 202 {
  if (outcome.checking) return 202;
  return outcome.requestId === undefined ? 200 : 201;
}

/** An outcome as the pages and the API answer it: its HTTP status, its message's key and its message in `lang`. */
export function answerOf<
  T extends { ok: boolean; code: string; params?: TextParams; requestId?: number; checking?: true },
>(outcome: T, lang: Language) {
  return {
    ...outcome,
    status: outcome.ok ? doneStatusOf(outcome) : statusOf(outcome),
    key: keyOf(outcome),
    message: messageOf(outcome, lang),
  };
}
