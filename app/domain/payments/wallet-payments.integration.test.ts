import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { IDENTITY_CERTIFICATE, IDENTITY_KEY, OTHER_KEY } from "../../../tests/support/wallet-fixtures";
import { advanceClock, nowIso, resetClock } from "~/lib/clock.server";
import { seal, unseal } from "~/lib/sealed.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { publicPayView } from "~/presentation/public-pay-view.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";
import type { AttemptForGateway, GatewayAdapter, GatewayOutcome, WalletPayment } from "./gateways/gateway";
import { GATEWAY_KINDS, walletsOf, type GatewayKindDefinition } from "./gateways/registry";
import { payAttemptWithWallet } from "./wallet-payments.server";
import {
  applePaySetup,
  domainAssociationFile,
  isApplePayValidationUrl,
  requestMerchantSession,
  saveWalletSettings,
  walletSettingsView,
} from "./wallet-settings.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

/** What the fake gateway was asked, and what it answers next. */
const calls: { attempt: AttemptForGateway; wallet: WalletPayment }[] = [];
type Answer = (attempt: AttemptForGateway) => GatewayOutcome & { gatewayReference?: string };
const approve: Answer = (attempt) => ({
  status: "success",
  amount: attempt.total,
  refs: { paymentId: `PAY-${attempt.trackId}` },
  gatewayReference: `ORDER-${attempt.id}`,
});
let answer = approve;

/** A gateway kind that takes wallets, standing in for a real one behind the port. */
const walletGateway: GatewayAdapter = {
  async payWithWallet(_config, attempt, wallet) {
    calls.push({ attempt, wallet });
    return answer(attempt);
  },
  async start() {
    throw new Error("a wallet attempt is never started on a hosted page");
  },
  async inquire(_config, attempt) {
    return { status: "success", amount: attempt.total, refs: {} };
  },
  capture: async () => ({ ok: true }),
  refund: async () => ({ ok: true }),
  void: async () => ({ ok: true }),
  inquireOperation: async () => ({ status: "not_found" }),
};
const kinds = GATEWAY_KINDS as Record<string, GatewayKindDefinition>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Wallet");
  kinds.wallet_test = {
    adapter: walletGateway,
    settings: { credentials: [{ field: "merchant_id", key: "merchantId", required: true, secret: false }] },
    operations: ["refund"],
    wallets: ["apple_pay", "google_pay"],
    googlePay: { gateway: "examplegateway", merchantIdCredential: "merchant_id" },
    sessionMinutes: 30,
  };
  await database.db
    .insertInto("gateways")
    .values({
      merchant_id: shop.merchantId,
      code: "wallet-gateway",
      kind: "wallet_test",
      name_en: "Cards and wallets",
      name_ar: "البطاقات والمحافظ",
      logo_url: null,
      currencies: "KWD",
      endpoint_url: "https://gateway.example",
      credentials: seal(JSON.stringify({ merchant_id: "TESTMERCHANT01" })),
      fee_fixed: 100,
      fee_basis_points: 0,
      fee_payer: "customer",
      capture_mode: "auto",
      enabled: 1,
      sort_order: 3,
      created_at: nowIso(),
    })
    .execute();
});
afterAll(async () => {
  delete kinds.wallet_test;
  await database?.destroy();
});
afterEach(() => {
  resetClock();
  calls.length = 0;
  answer = approve;
});

async function create(fields: Record<string, unknown> = {}) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "12.500", pg_codes: ["knet-sandbox", "wallet-gateway"], ...fields }),
    baseUrl: "https://pay.example",
    lang: "en",
  });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  return created.transaction;
}

function pay(transactionId: string, input: Partial<Parameters<typeof payAttemptWithWallet>[1]> = {}) {
  return payAttemptWithWallet(database.db, {
    transactionId,
    gatewayCode: "wallet-gateway",
    provider: "apple_pay",
    token: JSON.stringify({ paymentData: { data: `encrypted-${Math.random()}` } }),
    // 12.500 and the gateway's 0.100 fee.
    total: "12.600",
    lang: "en",
    addresses,
    plugins: PAYABLE_SECTIONS,
    ...input,
  });
}

async function transactionRow(id: string) {
  return database.db
    .selectFrom("transactions")
    .select(["state", "paid_amount", "paid_attempt_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function attemptsOf(transactionId: string) {
  return database.db
    .selectFrom("payment_attempts")
    .select(["id", "state", "total", "result_code", "gateway_reference"])
    .where("transaction_id", "=", transactionId)
    .execute();
}

async function setUpApplePay() {
  const saved = await saveWalletSettings(database.db, {
    appleMerchantIdentifier: "merchant.com.example.pay",
    appleDisplayName: "Example Pay",
    appleDomainAssociation: "7B2270737049...",
    appleCertificate: IDENTITY_CERTIFICATE,
    appleKey: IDENTITY_KEY,
    googleMerchantId: "",
  });
  expect(saved).toEqual({ ok: true });
}

describe("the installation's wallet settings", () => {
  it("refuse a wrong identifier, a certificate without its key or with another's, and an expired one, changing nothing", async () => {
    const base = {
      appleMerchantIdentifier: "merchant.com.example.pay",
      appleDisplayName: "Example Pay",
      appleDomainAssociation: "",
      appleCertificate: IDENTITY_CERTIFICATE,
      appleKey: IDENTITY_KEY,
      googleMerchantId: "",
    };
    expect(
      await saveWalletSettings(database.db, { ...base, appleMerchantIdentifier: "com.example.pay" }),
    ).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.merchant_identifier",
      field: "apple_merchant_identifier",
    });
    expect(await saveWalletSettings(database.db, { ...base, appleKey: "" })).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.certificate_pair",
      field: "apple_key",
    });
    expect(await saveWalletSettings(database.db, { ...base, appleKey: OTHER_KEY })).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.certificate_pair",
      field: "apple_key",
    });
    expect(await saveWalletSettings(database.db, { ...base, appleCertificate: "not a certificate" })).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.certificate",
    });
    expect(await saveWalletSettings(database.db, { ...base, appleCertificate: "", appleKey: "" })).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.certificate_missing",
    });
    expect(await saveWalletSettings(database.db, { ...base, googleMerchantId: "BCR2 DN4T" })).toMatchObject({
      ok: false,
      field: "google_merchant_id",
    });
    advanceClock(101 * 366 * 24 * 3600 * 1000);
    expect(await saveWalletSettings(database.db, base)).toMatchObject({
      ok: false,
      code: "operator.wallets.errors.certificate_expired",
    });
    resetClock();
    expect(await applePaySetup(database.db)).toBeNull();
    expect(await domainAssociationFile(database.db)).toBeNull();
  });

  it("keep the certificate and key sealed, and keep them and the association file when saved again without them", async () => {
    await setUpApplePay();
    const row = await database.db
      .selectFrom("wallet_settings")
      .select(["apple_identity_certificate", "apple_identity_key"])
      .executeTakeFirstOrThrow();
    expect(row.apple_identity_key).not.toContain("PRIVATE KEY");
    expect(row.apple_identity_certificate).not.toContain("CERTIFICATE");
    expect(unseal(row.apple_identity_key!)).toBe(IDENTITY_KEY);
    expect(
      await saveWalletSettings(database.db, {
        appleMerchantIdentifier: "merchant.com.example.pay",
        appleDisplayName: "Example Pay Kuwait",
        appleDomainAssociation: "",
        appleCertificate: "",
        appleKey: "",
        googleMerchantId: "BCR2DN4T",
      }),
    ).toEqual({ ok: true });
    expect(await applePaySetup(database.db)).toMatchObject({
      displayName: "Example Pay Kuwait",
      certificate: IDENTITY_CERTIFICATE,
      key: IDENTITY_KEY,
    });
    expect(await domainAssociationFile(database.db)).toBe("7B2270737049...");
    const view = await walletSettingsView(database.db);
    expect(view).toMatchObject({
      appleMerchantIdentifier: "merchant.com.example.pay",
      hasDomainAssociation: true,
      googleMerchantId: "BCR2DN4T",
    });
    expect(JSON.stringify(view)).not.toContain("PRIVATE KEY");
  });
});

describe("Apple Pay's merchant validation", () => {
  it("calls only Apple's payment gateway hosts, or in sandbox mode the platform's stand-in", () => {
    const sandbox = ["https://pay.example"];
    for (const url of [
      "https://apple-pay-gateway.apple.com/paymentservices/paymentSession",
      "https://apple-pay-gateway-nc-pod5.apple.com/paymentservices/startSession",
      "https://apple-pay-gateway-cert.apple.com/paymentservices/startSession",
      "https://cn-apple-pay-gateway.apple.com/paymentservices/paymentSession",
      "https://pay.example/sandbox/apple-pay/paymentservices/paymentSession",
    ])
      expect(isApplePayValidationUrl(url, sandbox), url).toBe(true);
    for (const url of [
      "https://evil.example/paymentservices/paymentSession",
      "https://apple-pay-gateway.apple.com.evil.example/paymentSession",
      "http://apple-pay-gateway.apple.com/paymentservices/paymentSession",
      "https://apple-pay-gateway.apple.com:8443/paymentservices/paymentSession",
      "https://user:pass@apple-pay-gateway.apple.com/paymentservices/paymentSession",
      "https://apple.com/paymentservices/paymentSession",
      "http://127.0.0.1:9/sandbox/apple-pay/paymentservices/paymentSession",
      "https://pay.example/admin",
      "not a url",
    ])
      expect(isApplePayValidationUrl(url, sandbox), url).toBe(false);
  });

  it("refuses a URL that is not Apple's without calling anything", async () => {
    await setUpApplePay();
    const fetching = vi.spyOn(globalThis, "fetch");
    try {
      const outcome = await requestMerchantSession(database.db, {
        validationUrl: "https://169.254.169.254/latest/meta-data",
        domain: "pay.example",
        sandboxOrigins: ["https://pay.example"],
        internalBaseUrl: addresses.internalBaseUrl,
      });
      expect(outcome).toMatchObject({ ok: false, code: "pay.errors.wallet_validation_url", field: "validation_url" });
      expect(fetching).not.toHaveBeenCalled();
    } finally {
      fetching.mockRestore();
    }
  });

  it("in sandbox mode asks the stand-in with the merchant identifier, display name, initiative web and the domain, and answers its session", async () => {
    await setUpApplePay();
    const fetching = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(Response.json({ merchantSessionIdentifier: "SSH1", domainName: "pay.example" }));
    try {
      const outcome = await requestMerchantSession(database.db, {
        validationUrl: "https://apple-pay-gateway-cert.apple.com/paymentservices/startSession",
        domain: "pay.example",
        sandboxOrigins: ["https://pay.example"],
        internalBaseUrl: addresses.internalBaseUrl,
      });
      expect(outcome).toEqual({ ok: true, session: { merchantSessionIdentifier: "SSH1", domainName: "pay.example" } });
      const [url, init] = fetching.mock.calls[0]!;
      expect(String(url)).toBe("http://127.0.0.1:9/sandbox/apple-pay/paymentservices/paymentSession");
      expect(JSON.parse(String(init?.body))).toEqual({
        merchantIdentifier: "merchant.com.example.pay",
        displayName: "Example Pay",
        initiative: "web",
        initiativeContext: "pay.example",
      });
    } finally {
      fetching.mockRestore();
    }
  });
});

describe("paying with a wallet's token", () => {
  it("pays the attempt once with the gateway's answer, the token handed to the gateway as it came", async () => {
    await setUpApplePay();
    const transaction = await create();
    const token = JSON.stringify({ paymentData: { data: "encrypted-1" }, transactionIdentifier: "T1" });
    const outcome = await pay(transaction.id, { token });
    expect(outcome).toMatchObject({ ok: true, state: "success" });
    expect(outcome.ok && outcome.resultUrl).toBe(
      `https://pay.example/en/pay/attempt-detail/${outcome.ok && outcome.attemptId}`,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.wallet).toEqual({ provider: "apple_pay", token });
    expect(calls[0]!.attempt.total).toBe(12600);
    expect(await transactionRow(transaction.id)).toMatchObject({ state: "paid", paid_amount: 12600 });
    const [attempt] = await attemptsOf(transaction.id);
    expect(attempt).toMatchObject({ state: "success", gateway_reference: `ORDER-${attempt!.id}` });
    const ledger = await database.db
      .selectFrom("ledger_entries")
      .select("amount")
      .where("transaction_id", "=", transaction.id)
      .execute();
    expect(ledger).toEqual([{ amount: 12600 }]);
  });

  it("records a decline as a failed attempt and leaves the link payable", async () => {
    await setUpApplePay();
    const transaction = await create();
    answer = () => ({ status: "failed", refs: { resultCode: "DECLINED" } });
    expect(await pay(transaction.id)).toMatchObject({ ok: true, state: "failed" });
    expect(await transactionRow(transaction.id)).toMatchObject({ state: "attempted", paid_amount: 0 });
    expect(await attemptsOf(transaction.id)).toMatchObject([{ state: "failed", result_code: "DECLINED" }]);
  });

  it("sends a replayed token to the attempt it paid, never to the gateway again, and refuses it for another transaction", async () => {
    await setUpApplePay();
    const transaction = await create();
    const token = JSON.stringify({ paymentData: { data: "encrypted-replayed" } });
    const [first, second] = await Promise.all([pay(transaction.id, { token }), pay(transaction.id, { token })]);
    expect(first.ok && second.ok && first.attemptId === second.attemptId).toBe(true);
    expect(calls).toHaveLength(1);
    expect(await attemptsOf(transaction.id)).toHaveLength(1);
    const other = await create();
    expect(await pay(other.id, { token })).toMatchObject({
      ok: false,
      error: "pay.errors.wallet_token",
      field: "token",
    });
    expect(await attemptsOf(other.id)).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("refuses a total other than the one charged before any attempt, and records a gateway's other amount as an error, once", async () => {
    await setUpApplePay();
    const transaction = await create();
    expect(await pay(transaction.id, { total: "12.500" })).toMatchObject({
      ok: false,
      error: "pay.errors.wallet_total_changed",
      field: "amount",
    });
    expect(await pay(transaction.id, { total: "twelve" })).toMatchObject({
      ok: false,
      error: "pay.errors.wallet_total_changed",
    });
    expect(await attemptsOf(transaction.id)).toEqual([]);
    expect(calls).toHaveLength(0);
    answer = (attempt) => ({ status: "success", amount: attempt.total - 100, refs: {} });
    expect(await pay(transaction.id)).toMatchObject({ ok: true, state: "error" });
    expect(await attemptsOf(transaction.id)).toMatchObject([{ state: "error", result_code: "AMOUNT_MISMATCH" }]);
    expect(await transactionRow(transaction.id)).toMatchObject({ state: "attempted", paid_amount: 0 });
  });

  it("pays a typed amount on an editable request at the total the sheet showed", async () => {
    await setUpApplePay();
    const transaction = await create({ editable_amount: "on", min_amount: "1", max_amount: "100" });
    expect(await pay(transaction.id, { amountText: "20", total: "20.100" })).toMatchObject({
      ok: true,
      state: "success",
    });
    expect(calls[0]!.attempt.total).toBe(20100);
  });

  it("trusts nothing else either: an unknown or paid transaction, a method not on the link, a gateway without wallets, Apple Pay not set up", async () => {
    await setUpApplePay();
    expect(await pay("0000000000000000000000")).toMatchObject({ ok: false, error: "pay.errors.not_found" });
    const paid = await create();
    expect(await pay(paid.id)).toMatchObject({ ok: true, state: "success" });
    expect(await pay(paid.id)).toMatchObject({ ok: false, error: "pay.errors.not_payable" });
    const knetOnly = await create({ pg_codes: ["knet-sandbox"] });
    expect(await pay(knetOnly.id)).toMatchObject({ ok: false, error: "pay.errors.choose_gateway" });
    const transaction = await create({ pg_codes: ["knet-sandbox", "mpgs-sandbox", "wallet-gateway"] });
    expect(await pay(transaction.id, { gatewayCode: "knet-sandbox", total: "12.500" })).toMatchObject({
      ok: false,
      error: "pay.errors.choose_gateway",
      field: "gateway_code",
    });
    expect(await pay(transaction.id, { gatewayCode: "knet-sandbox", total: "12.500" })).toMatchObject({
      ok: false,
      error: "pay.errors.choose_gateway",
    });
    expect(await pay(transaction.id, { token: "" })).toMatchObject({ ok: false, error: "pay.errors.wallet_token" });
    await database.db.deleteFrom("wallet_settings").execute();
    expect(await pay(transaction.id)).toMatchObject({ ok: false, error: "pay.errors.choose_gateway" });
    // Google Pay needs no Apple settings.
    expect(await pay(transaction.id, { provider: "google_pay", token: "google-token" })).toMatchObject({
      ok: true,
      state: "success",
    });
    expect(await attemptsOf(knetOnly.id)).toEqual([]);
    expect(calls.map((call) => call.wallet.provider)).toEqual(["apple_pay", "google_pay"]);
  });

  it("offers no wallet for a kind whose adapter cannot pay with one", () => {
    expect(walletsOf("knet")).toEqual([]);
    expect(walletsOf("wallet_test")).toEqual(["apple_pay", "google_pay"]);
    const { payWithWallet } = walletGateway;
    delete walletGateway.payWithWallet;
    try {
      expect(walletsOf("wallet_test")).toEqual([]);
    } finally {
      walletGateway.payWithWallet = payWithWallet;
    }
  });
});

describe("the pay API's apple_pay_config", () => {
  it("names the domain, shop, total, currency, country, transaction and method when a method takes Apple Pay, and is null otherwise", async () => {
    await setUpApplePay();
    const transaction = await create();
    const view = await publicPayView(database.db, transaction.id, "en", PAYABLE_SECTIONS, { addresses });
    expect(view.ok && (view.body as { apple_pay_config: unknown }).apple_pay_config).toEqual({
      domain: "pay.example",
      shop_name: "Wallet Store",
      amount: "12.600",
      currency_code: "KWD",
      country_code: "KW",
      session_id: transaction.id,
      code: "wallet-gateway",
    });
    const knetOnly = await create({ pg_codes: ["knet-sandbox"] });
    const without = await publicPayView(database.db, knetOnly.id, "en", PAYABLE_SECTIONS, { addresses });
    expect(without.ok && (without.body as { apple_pay_config: unknown }).apple_pay_config).toBeNull();
    await database.db.deleteFrom("wallet_settings").execute();
    const unset = await publicPayView(database.db, transaction.id, "en", PAYABLE_SECTIONS, { addresses });
    expect(unset.ok && (unset.body as { apple_pay_config: unknown }).apple_pay_config).toBeNull();
  });
});
