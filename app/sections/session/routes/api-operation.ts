import type { RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { toDecimalString } from "~/lib/money";
import { platformAddresses } from "~/web/addresses.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiUser,
  userOnPlugin,
} from "~/web/api.server";
import {
  callerOf,
  IDEMPOTENCY_KEY_HEADER,
  operationReferenceOf,
  respondOnce,
  type KeyHeader,
} from "~/web/idempotency.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import {
  AMOUNT_REFUSALS,
  findOperableSession,
  isSessionOperation,
  operationPermission,
  runSessionOperation,
  type SessionOperationOutcome,
} from "../domain/operations.server";

type Args = { request: Request; context: Readonly<RouterContextProvider> };

/** The operations API's own name for its idempotency key; an Idempotency-Key is read the same way when none is sent. */
const TRACKING_KEY_HEADER: KeyHeader = {
  name: "Tracking-Key",
  tooLong: "checkout_operations.errors.tracking_key_too_long",
  conflict: "checkout_operations.errors.tracking_key_conflict",
  inProgress: "checkout_operations.errors.tracking_key_in_progress",
};
/** Tracking keys and the Idempotency-Keys sent here are one set, apart from the keys of the merchant's other calls. */
const KEY_PREFIX = "checkout-operation:";
const SCOPE = "checkout.operation";

/** An operation the platform took on answers 200, or 202 while it waits; one the gateway refused is a result too (200, `failed`). */
const STATUS_OF_RESULT = { success: 200, pending: 202, failed: 200 } as const;
const OWN_STATUSES: Readonly<Record<string, number>> = { "checkout_operations.errors.attempt_in_flight": 409 };
/** The longest order number a checkout session takes, and so the longest one an operation names. */
const ORDER_NO_MAX = 100;

/**
 * A refusal that holds only for now — a payment or a checker still to finish (409), a session gone
 * (404) — thrown out of the Tracking-Key's work so that it is answered but never kept under the
 * key: a retry with the same key once it has passed acts, instead of getting the refusal for ever.
 */
class PassingRefusal extends Error {
  constructor(readonly response: Response) {
    super("passing refusal");
  }
}

function isPassing(status: number) {
  return status === 404 || status === 409;
}

/** A text field as sent: a string or a number (an order number may come as one); null when absent or blank. */
function textOf(value: unknown, max: number): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? null : text.length > max ? undefined : text;
}

/**
 * POST /api/v1/checkout/v1/operation/ with {operation, session_id or order_no, amount}: a merchant's
 * server refunds, captures or voids the payment of one of its checkout sessions, or cancels or
 * expires one nobody has paid (decision 0029). Answers 200 when done or refused by the gateway
 * (`result` says which), 202 when it waits for a checker or for the gateway's answer, each with the
 * session's money after it; refusals in DRF's shape (400, 403, 404, 409). A Tracking-Key (or
 * Idempotency-Key) makes a repeated call answer its first result without acting again; a refusal
 * that only holds for now (404, 409) is not kept as that result.
 */
export async function action({ request, context }: Args) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user: caller } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const lang = apiLanguage(request);
  const body = await readBody(request);

  const errors: Record<string, string[]> = {};
  const operation = body.operation;
  if (!isSessionOperation(operation)) errors.operation = ["checkout_operations.errors.operation"];
  const sessionId = textOf(body.session_id, 64);
  const orderNo = textOf(body.order_no, ORDER_NO_MAX);
  if (sessionId === undefined) errors.session_id = ["checkout_operations.errors.session_id"];
  if (orderNo === undefined) errors.order_no = ["checkout_operations.errors.order_no"];
  if (sessionId === null && orderNo === null) errors.non_field_errors = ["checkout_operations.errors.session_required"];
  const amount = textOf(body.amount, 32);
  if (amount === undefined) errors.amount = ["operations.errors.amount"];
  else if (amount !== null && isSessionOperation(operation) && operation !== "refund" && operation !== "capture") {
    errors.amount = [
      operation === "void" ? "checkout_operations.errors.void_whole" : "checkout_operations.errors.no_amount",
    ];
  }
  if (Object.keys(errors).length || !isSessionOperation(operation)) return apiErrors(request, errors, 400);

  // Unknown, another merchant's, or of a section the key may not touch: all the same 404. A session
  // whose transaction was deleted from the list is read so that its Tracking-Key's answer is still given.
  const session = await findOperableSession(
    db,
    caller.merchantId,
    { sessionId: sessionId ?? null, orderNo: orderNo ?? null },
    { deleted: true },
  );
  const user = session ? userOnPlugin(caller, session.plugin) : null;
  if (
    !session ||
    !user ||
    !hasFeature(await loadAvailableSections(db, user.merchantId), session.plugin, "transactions")
  ) {
    return apiDetail(request, "checkout_operations.errors.not_found", 404);
  }
  if (!can(user, operationPermission(operation))) return apiDetail(request, "api.permission_denied", 403);

  const keyHeader = request.headers.has(TRACKING_KEY_HEADER.name) ? TRACKING_KEY_HEADER : IDEMPOTENCY_KEY_HEADER;
  const identity = { operation, session_id: sessionId ?? null, order_no: orderNo ?? null, amount: amount ?? null };
  try {
    return await respondOnce(
      request,
      {
        db,
        merchantId: user.merchantId,
        caller: callerOf(user),
        scope: SCOPE,
        body: identity,
        keyPrefix: KEY_PREFIX,
        keyHeader,
      },
      async () => {
        if (session.deleted_at)
          throw new PassingRefusal(apiDetail(request, "checkout_operations.errors.not_found", 404));
        const outcome = await runSessionOperation(db, {
          merchantId: user.merchantId,
          actor: user,
          session,
          operation,
          amount: amount ?? null,
          lang,
          baseUrl: linkBaseUrl(),
          addresses: platformAddresses(request),
          operationReference: operationReferenceOf(
            request,
            user.merchantId,
            callerOf(user),
            `${KEY_PREFIX}${SCOPE}`,
            keyHeader.name,
          ),
        });
        if (!outcome.ok) {
          const refused = refusal(outcome, lang, session.currency_code);
          if (isPassing(refused.status))
            throw new PassingRefusal(apiJson(refused.body, refused.status, refused.headers));
          return { status: refused.status, body: refused.body };
        }
        const after =
          (await findOperableSession(db, user.merchantId, { sessionId: session.session_id, orderNo: null })) ?? session;
        return {
          status: STATUS_OF_RESULT[outcome.result],
          body: {
            operation,
            session_id: session.session_id,
            order_no: session.order_no,
            amount: outcome.amount === null ? null : toDecimalString(outcome.amount, session.currency_code),
            currency_code: session.currency_code,
            result: outcome.result,
            detail: messageOf(outcome, lang),
            state: after.state,
            paid_amount: toDecimalString(Number(after.paid_amount), session.currency_code),
            refunded_amount: toDecimalString(Number(after.refunded_amount), session.currency_code),
            approval_request_id: outcome.approvalRequestId,
          },
        };
      },
    );
  } catch (error) {
    if (error instanceof PassingRefusal) return error.response;
    throw error;
  }
}

/** A refusal in DRF's shape: {detail}, the field's own error, and what is still available when the amount was the trouble. */
function refusal(
  outcome: Extract<SessionOperationOutcome, { ok: false }>,
  lang: ReturnType<typeof apiLanguage>,
  currency: string,
) {
  const message = messageOf(outcome, lang);
  const available = outcome.params?.available;
  const availableField =
    (AMOUNT_REFUSALS as readonly string[]).includes(outcome.code) &&
    available &&
    typeof available === "object" &&
    "minor" in available
      ? { available_amount: toDecimalString(available.minor, currency) }
      : {};
  // A payment in flight: when to ask again (the platform's next look at the gateway, at the latest the end of its session).
  const retryAfter = outcome.params?.retryAfter;
  return {
    status: OWN_STATUSES[outcome.code] ?? statusOf(outcome),
    body: { detail: message, ...(outcome.field ? { [outcome.field]: [message] } : {}), ...availableField },
    headers: typeof retryAfter === "number" ? { "Retry-After": String(retryAfter) } : undefined,
  };
}

export function loader({ request }: Args) {
  return methodNotAllowed(request);
}
