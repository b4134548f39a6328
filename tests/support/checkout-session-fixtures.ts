import { writeTransaction, type DB } from "~/db/database.server";
import { createApiKey, parseScopes } from "~/domain/identity/api-keys.server";
import { createTransaction } from "~/domain/payments/transaction-state.server";
import { MPGS_TEST_CARDS } from "~/domain/sandbox/test-cards";
import { publicId } from "~/lib/ids.server";
import { nowIso } from "~/lib/clock.server";
import { API_KEY_PLUGINS } from "~/sections/registry";

const form = (origin: string) => ({ Origin: origin, "Content-Type": "application/x-www-form-urlencoded" });

/**
 * A checkout session as a merchant's server makes one: a transaction of the `payment_request`
 * (or `e_commerce`) section and the session row that names it with the merchant's order number.
 */
export async function createCheckoutSession(
  db: DB,
  input: {
    merchantId: number;
    userId: number;
    amount: number;
    orderNo: string;
    type?: "payment_request" | "e_commerce";
  },
) {
  const type = input.type ?? "payment_request";
  return writeTransaction(db, async (trx) => {
    const made = await createTransaction(trx, {
      merchant_id: input.merchantId,
      plugin: type,
      amount: input.amount,
      currency_code: "KWD",
      editable_amount: 0,
      min_amount: null,
      max_amount: null,
      customer_email: "buyer@example.com",
      customer_phone: null,
      customer_first_name: "Sara",
      customer_last_name: "Al-Sabah",
      description: `Order ${input.orderNo}`,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "mpgs-sandbox",
      expiration_time: null,
      next_url: null,
      initiator_user_id: input.userId,
      gateway_code: null,
      paid_attempt_id: null,
      delivery_mode: "none",
      send_email: 0,
      send_sms: 0,
    });
    const sessionId = publicId();
    const at = nowIso();
    await trx
      .insertInto("checkout_sessions")
      .values({
        id: sessionId,
        merchant_id: input.merchantId,
        transaction_id: made.id,
        type,
        order_no: input.orderNo,
        redirect_url: null,
        webhook_url: null,
        created_by: input.userId,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return { sessionId, transactionId: made.id, orderNo: input.orderNo };
  });
}

/** The customer's Pay Now on the pay page with the card sandbox: the attempt is started, the card page not yet answered. */
export async function startCardAttempt(serverUrl: string, transactionId: string) {
  const payNow = await fetch(`${serverUrl}/en/pay/${transactionId}`, {
    method: "POST",
    headers: form(serverUrl),
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `${transactionId}-${Math.random()}` }),
    redirect: "manual",
  });
  if (payNow.status !== 303) throw new Error(`Pay Now answered ${payNow.status}`);
  return payNow.headers.get("Location")!;
}

/** The customer answers the card sandbox's page with this card and comes back: the platform checks the payment with the gateway. */
export async function finishCardAttempt(serverUrl: string, cardPage: string, cardNumber: string) {
  const answered = await fetch(cardPage, {
    method: "POST",
    headers: form(serverUrl),
    body: new URLSearchParams({ cardNumber, expiry: "01/39", cvv: "123" }),
    redirect: "manual",
  });
  if (answered.status !== 303) throw new Error(`The card page answered ${answered.status}`);
  await fetch(new URL(answered.headers.get("Location")!, serverUrl), { redirect: "manual" });
}

/**
 * The session paid like a customer would: Pay Now, the test card 5123450000000008 on the card
 * sandbox's page, and the return, which the platform checks with the gateway. Paid, or authorized
 * when the merchant's card gateway captures by hand.
 */
export async function payCheckoutSession(db: DB, serverUrl: string, transactionId: string) {
  await finishCardAttempt(serverUrl, await startCardAttempt(serverUrl, transactionId), MPGS_TEST_CARDS.mastercard);
  const row = await db
    .selectFrom("transactions")
    .select(["state"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  if (row.state !== "paid" && row.state !== "authorized")
    throw new Error(`The session's transaction is ${row.state}, not paid`);
  return row.state;
}

/** An API key of the merchant, made by its superuser, with these scopes; answers the secret. */
export async function apiKeyWith(
  db: DB,
  manager: { merchantId: number; id: number; username: string },
  scopes: string[],
) {
  const parsed = parseScopes(scopes, API_KEY_PLUGINS);
  if (!parsed.ok) throw new Error(`unknown scopes ${parsed.unknown.join(", ")}`);
  const made = await createApiKey(db, {
    manager: { id: manager.id, username: manager.username, merchantId: manager.merchantId, is_superuser: true },
    key: { name: `Shop server ${scopes.join(" ")}`, scopes, grants: parsed.grants, allowedIps: [], expiresAt: null },
  });
  if (!made.ok) throw new Error(`could not make a key: ${made.code}`);
  return made.key;
}
