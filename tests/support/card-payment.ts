import type { DB } from "~/db/database.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";

const form = (origin: string) => ({ Origin: origin, "Content-Type": "application/x-www-form-urlencoded" });

/**
 * A payment request paid like a customer would: Pay Now with the card sandbox, the test card
 * 5123450000000008 on its hosted page, and the return to the platform, which asks the gateway
 * before it believes anything. Needs the app behind a real HTTP server (tests/support/http-server).
 */
export async function payByCard(
  db: DB,
  serverUrl: string,
  input: { merchantId: number; user: { id: number; username: string }; amount: string },
) {
  const created = await createPaymentRequest(db, {
    merchantId: input.merchantId,
    user: input.user,
    request: PaymentRequestSchema.parse({
      amount: input.amount,
      pg_codes: "mpgs-sandbox",
      customer_email: "buyer@example.com",
    }),
    baseUrl: serverUrl,
    lang: "en",
  });
  if (!created.ok) throw new Error(`could not create: ${JSON.stringify(created.errors)}`);
  const id = created.transaction.id;
  const payNow = await fetch(`${serverUrl}/en/pay/${id}`, {
    method: "POST",
    headers: form(serverUrl),
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `${id}-${Math.random()}` }),
    redirect: "manual",
  });
  if (payNow.status !== 303) throw new Error(`Pay Now answered ${payNow.status}`);
  const paid = await fetch(payNow.headers.get("Location")!, {
    method: "POST",
    headers: form(serverUrl),
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    redirect: "manual",
  });
  if (paid.status !== 303) throw new Error(`The card page answered ${paid.status}`);
  await fetch(new URL(paid.headers.get("Location")!, serverUrl), { redirect: "manual" });
  const row = await db
    .selectFrom("transactions")
    .select(["state", "order_no"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  if (row.state !== "paid") throw new Error(`The transaction is ${row.state}, not paid`);
  return { id, orderNo: row.order_no };
}
