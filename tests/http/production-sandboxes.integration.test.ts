import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../support/fixtures";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startAttempt } from "~/domain/payments/attempts.server";
import { encryptResult } from "~/domain/payments/gateways/knet/knet-protocol";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";

/**
 * An installation in production mode (SANDBOX=0) that once ran with the sandboxes' published demo
 * accounts: the sandboxes do not exist, their pages and APIs answer 404, customers are not offered
 * gateways that stood on them, and a result forged with a published secret verifies nowhere.
 */
const PUBLISHED = {
  knet: { tranportalId: "110100", password: "SandboxKnet#2026", resourceKey: "SandboxKey2026KW" },
};

let database: TestDatabase;
let server: ServerProcess;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let knetAttempt: { id: string; track_id: string; transaction_id: string };
const noRedirect = { redirect: "manual" as const };

async function newRequest(pgCodes: string) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "4.000", pg_codes: pgCodes, customer_email: "payer@example.com" }),
    baseUrl: "http://127.0.0.1",
    lang: "en",
  });
  if (!created.ok) throw new Error(`could not create: ${JSON.stringify(created.errors)}`);
  return created.transaction.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Prod");
  // What an earlier version left behind: the published accounts in the sandboxes' books, and the
  // merchant's sandbox gateways configured with them.
  await database.db
    .insertInto("sandbox_knet_terminals")
    .values({
      tranportal_id: PUBLISHED.knet.tranportalId,
      password: PUBLISHED.knet.password,
      resource_key: PUBLISHED.knet.resourceKey,
    })
    .execute();
  await database.db
    .updateTable("gateways")
    .set({ credentials: JSON.stringify(PUBLISHED.knet) })
    .where("merchant_id", "=", shop.merchantId)
    .where("kind", "=", "knet")
    .execute();
  // A KNET payment started back then, its customer still on the gateway's page.
  const id = await newRequest("knet-sandbox,cod");
  const started = await startAttempt(database.db, {
    transactionId: id,
    gatewayCode: "knet-sandbox",
    submissionToken: "before-the-upgrade",
    lang: "en",
    addresses: { publicBaseUrl: "http://127.0.0.1", internalBaseUrl: "http://127.0.0.1" },
    plugins: ["payment_request"],
  });
  if (!started.ok) throw new Error(started.error);
  knetAttempt = await database.db
    .selectFrom("payment_attempts")
    .select(["id", "track_id", "transaction_id"])
    .where("id", "=", started.attemptId)
    .executeTakeFirstOrThrow();

  server = await startServerProcess({ ...database.env, SANDBOX: "0" });
});

afterAll(async () => {
  server?.child.kill("SIGKILL");
  await database?.destroy();
});

describe("production mode: the sandboxes off", () => {
  it("says so at start", () => {
    expect(server.output.join("")).toContain("Sandbox gateways: off");
  });

  it("answers 404 at every sandbox page and API, with any credentials", async () => {
    const knetXml = {
      method: "POST",
      headers: { "Content-Type": "application/xml" },
      body: `<id>${PUBLISHED.knet.tranportalId}</id><password>${PUBLISHED.knet.password}</password><action>8</action><transid>1</transid><trackid>1</trackid><udf5>TrackID</udf5>`,
    };
    const mpgsApi = "/sandbox/mpgs/api/rest/version/100/merchant/TEST1";
    const mpgs = (method: string, body?: string) => ({
      method,
      body,
      headers: {
        Authorization: `Basic ${Buffer.from("merchant.TEST1:password").toString("base64")}`,
        "Content-Type": "application/json",
      },
    });
    const checkout = JSON.stringify({
      apiOperation: "INITIATE_CHECKOUT",
      interaction: { operation: "PURCHASE", returnUrl: "https://evil.example/" },
      order: { id: "x", amount: "1.000", currency: "KWD", notificationUrl: "http://169.254.169.254/" },
    });
    const probes: Array<[string, RequestInit]> = [
      [
        `/sandbox/knet/kpg/PaymentHTTP.htm?param=paymentInit&tranportalId=${PUBLISHED.knet.tranportalId}&trandata=00`,
        {},
      ],
      ["/sandbox/knet/paymentpage.htm?PaymentID=100000000000001&token=00", {}],
      [
        "/sandbox/knet/paymentpage.htm?PaymentID=100000000000001&token=00",
        { method: "POST", body: new URLSearchParams({ intent: "cancel" }) },
      ],
      ["/sandbox/knet/kpg/tranPipe.htm?param=tranInit", knetXml],
      ["/sandbox/mpgs/checkout/pay/SESSION0002x", {}],
      [
        "/sandbox/mpgs/checkout/pay/SESSION0002x",
        { method: "POST", body: new URLSearchParams({ cardNumber: "5123450000000008" }) },
      ],
      [
        "/sandbox/mpgs/checkout/pay/SESSION0002x/authenticate",
        { method: "POST", body: new URLSearchParams({ intent: "authenticate", code: "1234" }) },
      ],
      [`${mpgsApi}/session`, mpgs("POST", checkout)],
      [`${mpgsApi}/order/x`, mpgs("GET")],
      [`${mpgsApi}/order/x/transaction/1`, mpgs("GET")],
      [
        `${mpgsApi}/order/x/transaction/1`,
        mpgs("PUT", JSON.stringify({ apiOperation: "REFUND", transaction: { amount: "1.000", currency: "KWD" } })),
      ],
    ];
    for (const [path, init] of probes) {
      const response = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { Origin: server.url, ...(init.headers ?? {}) },
        ...noRedirect,
      });
      expect(response.status, `${init.method ?? "GET"} ${path}`).toBe(404);
    }
  });

  it("keeps no published secret: not in the sandboxes' books, not in any gateway", async () => {
    const terminals = await database.db.selectFrom("sandbox_knet_terminals").select("tranportal_id").execute();
    expect(terminals.map((row) => row.tranportal_id)).not.toContain(PUBLISHED.knet.tranportalId);
    const gateways = JSON.stringify(await database.db.selectFrom("gateways").select("credentials").execute());
    for (const secret of Object.values(PUBLISHED.knet)) expect(gateways).not.toContain(secret);
  });

  it("refuses KNET results forged with the published resource key, even for an attempt started before", async () => {
    // A result verified with the terminal's key is taken as it comes: a published key would let
    // anyone post a capture, a cancel or a failure. The published key is no terminal's.
    for (const result of ["CANCELED", "NOT CAPTURED", "CAPTURED"]) {
      const trandata = encryptResult(
        {
          paymentid: "100000000000001",
          trackid: knetAttempt.track_id,
          result,
          amt: "4.000",
          tranid: "1",
          auth: "1",
          ref: "1",
          postdate: "1124",
          udf1: knetAttempt.id,
        },
        PUBLISHED.knet.resourceKey,
      );
      const answer = await fetch(`${server.url}/gateway/knet/response/${knetAttempt.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ trandata }),
        ...noRedirect,
      });
      expect(answer.status).toBe(400);
    }
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select("state")
      .where("id", "=", knetAttempt.id)
      .executeTakeFirstOrThrow();
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", knetAttempt.transaction_id)
      .executeTakeFirstOrThrow();
    expect(attempt.state).toBe("pending");
    expect(transaction.state).not.toBe("paid");
    expect(
      await database.db
        .selectFrom("ledger_entries")
        .select("id")
        .where("transaction_id", "=", knetAttempt.transaction_id)
        .execute(),
    ).toEqual([]);
  });

  it("offers customers only the gateways that do not stand on the sandboxes, and refuses Pay Now on the others", async () => {
    const id = await newRequest("knet-sandbox,mpgs-sandbox,cod");
    const page = await (await fetch(`${server.url}/en/pay/${id}`)).text();
    expect(page).toContain("Cash on delivery");
    expect(page).not.toContain('value="knet-sandbox"');
    expect(page).not.toContain('value="mpgs-sandbox"');
    const payNow = await fetch(`${server.url}/en/pay/${id}`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gateway_code: "knet-sandbox", submission_token: "prod-1" }),
      ...noRedirect,
    });
    expect(payNow.headers.get("Location") ?? "").not.toContain("/sandbox/");
    expect(
      await database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute(),
    ).toEqual([]);
  });
});
