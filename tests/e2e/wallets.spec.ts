import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { expect, test, type Browser, type Page } from "./fixtures";
import { refundInFull, signIn, t, type Lang } from "./support";
import { IDENTITY_CERTIFICATE, IDENTITY_KEY } from "../support/wallet-fixtures";

/**
 * Apple Pay and Google Pay on the pay page, in Chromium: Apple's ApplePaySession is the
 * apple-pay-js-stubs package's, Google Pay's Payment Request a stub of the same kind; Apple's
 * merchant validation is answered by the platform's stand-in (sandbox mode), and the token is paid
 * through the demo merchant's gateway that takes wallets (the Mastercard Gateway's sandbox).
 */
const APPLE_PAY_STUBS = fs.readFileSync(
  createRequire(import.meta.url).resolve("apple-pay-js-stubs/src/apple-pay-js-stubs.js"),
  "utf8",
);

/** A token of Apple's shape (ApplePayPayment.token), as the stubs' payment hands it over; each payment's is its own (a token is used once). */
function appleToken() {
  const id = randomBytes(16).toString("hex");
  return {
    paymentData: {
      version: "EC_v1",
      data: Buffer.from(`stubbed Apple Pay payment data ${id}`).toString("base64"),
      signature: "c3R1YmJlZCBzaWduYXR1cmU=",
      header: { ephemeralPublicKey: "c3R1YmJlZCBrZXk=", publicKeyHash: "c3R1YmJlZCBoYXNo", transactionId: id },
    },
    paymentMethod: { displayName: "Visa 1111", network: "Visa", type: "debit" },
    transactionIdentifier: id.toUpperCase(),
  };
}

/** What the Apple Pay stub does once the merchant is validated: the customer authorizes, or cancels. */
async function stubApplePay(page: Page, customer: "authorize" | "cancel") {
  await page.addInitScript(APPLE_PAY_STUBS);
  await page.addInitScript(
    ({ token, customer }) => {
      const Session = (window as unknown as { ApplePaySession: any }).ApplePaySession;
      Session.stubCanMakePayments = true;
      Session.STATUS_SUCCESS = 0;
      Session.STATUS_FAILURE = 1;
      const validated = Session.prototype.completeMerchantValidation;
      Session.prototype.completeMerchantValidation = function (merchantSession: {
        merchantSessionIdentifier?: string;
      }) {
        sessionStorage.setItem("merchantSession", merchantSession.merchantSessionIdentifier ?? "");
        return validated.call(this, merchantSession);
      };
      const completed = Session.prototype.completePayment;
      Session.prototype.completePayment = function (status: number) {
        sessionStorage.setItem("applePayStatus", String(status));
        return completed.call(this, status);
      };
      Session.stubExecuteAfterMerchantValidation = (session: any) => {
        sessionStorage.setItem("applePayTotal", JSON.stringify(session.request.total));
        if (customer === "cancel") session.oncancel({});
        else session.onpaymentauthorized({ payment: { token } });
      };
    },
    { token: appleToken(), customer },
  );
}

/** The Payment Request API as a browser with Google Pay set up answers it. */
async function stubGooglePay(page: Page) {
  await page.addInitScript((id) => {
    class PaymentRequestStub {
      methods: { supportedMethods: string; data: unknown }[];
      details: unknown;
      constructor(methods: { supportedMethods: string; data: unknown }[], details: unknown) {
        this.methods = methods;
        this.details = details;
      }
      canMakePayment() {
        return Promise.resolve(this.methods.some((method) => method.supportedMethods === "https://google.com/pay"));
      }
      show() {
        sessionStorage.setItem(
          "googlePayRequest",
          JSON.stringify({ data: this.methods[0]!.data, details: this.details }),
        );
        const token = JSON.stringify({
          signature: "MEUCIQ-stub",
          protocolVersion: "ECv2",
          signedMessage: JSON.stringify({ encryptedMessage: `stub-${id}`, ephemeralPublicKey: "stub", tag: "stub" }),
        });
        return Promise.resolve({
          details: {
            apiVersion: 2,
            apiVersionMinor: 0,
            paymentMethodData: {
              type: "CARD",
              description: "Visa •••• 1111",
              info: { cardNetwork: "VISA", cardDetails: "1111" },
              tokenizationData: { type: "PAYMENT_GATEWAY", token },
            },
          },
          complete: (result: string) => {
            sessionStorage.setItem("googlePayResult", result);
            return Promise.resolve();
          },
        });
      }
    }
    (window as unknown as { PaymentRequest: unknown }).PaymentRequest = PaymentRequestStub;
  }, randomBytes(16).toString("hex"));
}

/** Signs in as the installation's operator (the demo admin) and sets Apple Pay up on the operator's page. */
async function setUpApplePay(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, "admin");
    await page.goto("/en/operator/wallets");
    await page
      .getByRole("textbox", { name: t("en", "operator.wallets.fields.merchant_identifier") })
      .fill("merchant.com.example.pay");
    await page.getByRole("textbox", { name: t("en", "operator.wallets.fields.display_name") }).fill("Example Pay");
    await page
      .getByRole("textbox", { name: t("en", "operator.wallets.fields.domain_association") })
      .fill("7B227073704964223A22");
    await page
      .getByRole("textbox", { name: t("en", "operator.wallets.fields.certificate") })
      .fill(IDENTITY_CERTIFICATE);
    await page.getByRole("textbox", { name: t("en", "operator.wallets.fields.key") }).fill(IDENTITY_KEY);
    await page.getByRole("button", { name: t("en", "operator.wallets.save") }).click();
    await expect(page.getByText(t("en", "operator.wallets.saved"))).toBeVisible();
  } finally {
    await context.close();
  }
}

/** A payment request offering every gateway of the demo merchant; its pay path and the pay API's apple_pay_config. */
async function createRequest(browser: Browser, amount = "12.500") {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, "admin");
    await page.goto("/en/payment-request/create");
    await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill(amount);
    await page.getByRole("textbox", { name: t("en", "payment_request.first_name") }).fill("Fatima");
    await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
    await expect(page.getByText(t("en", "payment_request.created"))).toBeVisible();
    const payUrl = new URL(
      await page.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue(),
    ).pathname;
    const id = payUrl.split("/").pop()!;
    const api = await (await page.request.get(`/api/v1/plugins/payment_request/transaction/pay/${id}`)).json();
    const config = api.apple_pay_config as { code: string; amount: string } | null;
    expect(
      config,
      "a gateway of the demo merchant takes Apple Pay (the Mastercard Gateway's sandbox, its registry entry's wallets)",
    ).not.toBeNull();
    return { payUrl, config: config! };
  } finally {
    await context.close();
  }
}

test.describe("wallets on the pay page", () => {
  test("the operator sets Apple Pay up, and Apple's domain association file is served", async ({ browser, page }) => {
    await setUpApplePay(browser);
    const file = await page.request.get("/.well-known/apple-developer-merchantid-domain-association");
    expect(file.status()).toBe(200);
    expect(await file.text()).toBe("7B227073704964223A22");
  });

  for (const lang of ["en", "ar"] as const satisfies readonly Lang[]) {
    test(`pays with Apple Pay (${lang}): merchant validated through the server, token paid, result page, refunded in full`, async ({
      browser,
      page,
    }) => {
      const { payUrl, config } = await createRequest(browser);
      await stubApplePay(page, "authorize");
      await page.goto(payUrl.replace("/en/", `/${lang}/`));
      await page.getByRole("button", { name: t(lang, "pay.wallet.apple_pay") }).click();
      await expect(page.getByRole("heading", { name: t(lang, "result.success_title") })).toBeVisible();
      expect(await page.evaluate(() => sessionStorage.getItem("merchantSession"))).toMatch(/^SSH[0-9A-F]{32}$/);
      expect(await page.evaluate(() => sessionStorage.getItem("applePayStatus"))).toBe("0");
      expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem("applePayTotal")))!)).toMatchObject({
        amount: config.amount,
      });
      // The wallet's payment is the gateway's like any other: refunded from the dashboard.
      const staff = await browser.newContext();
      await refundInFull(await staff.newPage(), payUrl.split("/").pop()!, lang, config.amount);
      await staff.close();
    });
  }

  test("a canceled Apple Pay sheet is only logged, and the page still pays", async ({ browser, page }) => {
    const { payUrl } = await createRequest(browser, "4.000");
    await stubApplePay(page, "cancel");
    await page.goto(payUrl);
    const logged = page.waitForRequest(
      (request) => request.url().endsWith("/wallet/log") && request.method() === "POST",
    );
    await page.getByRole("button", { name: t("en", "pay.wallet.apple_pay") }).click();
    expect((await logged).postDataJSON()).toMatchObject({ provider: "apple_pay", event: "cancel" });
    await expect(page).toHaveURL(new RegExp(`${payUrl}$`));
    await expect(page.getByRole("button", { name: t("en", "pay.wallet.apple_pay") })).toBeEnabled();
    await page.getByRole("radio", { name: /KNET/ }).check();
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await page.getByRole("textbox", { name: "Card number" }).fill("8888880000000001");
    await page.getByRole("textbox", { name: "PIN" }).fill("1234");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
  });

  test("pays with Google Pay through the Payment Request API", async ({ browser, page }) => {
    const { payUrl, config } = await createRequest(browser);
    await stubGooglePay(page);
    await page.goto(payUrl);
    await page.getByRole("button", { name: t("en", "pay.wallet.google_pay") }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    const asked = JSON.parse((await page.evaluate(() => sessionStorage.getItem("googlePayRequest")))!);
    expect(asked.details.total.amount.value).toBe(config.amount);
    expect(asked.data.allowedPaymentMethods[0].tokenizationSpecification.type).toBe("PAYMENT_GATEWAY");
    expect(await page.evaluate(() => sessionStorage.getItem("googlePayResult"))).toBe("success");
  });

  test("a browser that cannot pay with Apple Pay shows no Apple Pay button", async ({ browser, page }) => {
    const { payUrl } = await createRequest(browser);
    await page.goto(payUrl);
    await expect(page.getByRole("button", { name: /Pay Now/ })).toBeVisible();
    await expect(page.getByRole("button", { name: t("en", "pay.wallet.apple_pay") })).toHaveCount(0);
  });
});

test.describe("wallets with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("no wallet button exists, and the page still pays with KNET", async ({ browser, page }) => {
    const { payUrl } = await createRequest(browser, "6.000");
    await page.goto(payUrl);
    await expect(page.getByRole("button", { name: t("en", "pay.wallet.apple_pay") })).toHaveCount(0);
    await expect(page.getByRole("button", { name: t("en", "pay.wallet.google_pay") })).toHaveCount(0);
    await expect(page.locator(".wallet-button")).toHaveCount(0);
    await expect(page.getByRole("radio", { name: /KNET/ })).toBeChecked();
    await page.getByRole("button", { name: /Pay Now/ }).click();
    await expect(page.getByText("Card number")).toBeVisible();
    await page.getByRole("textbox", { name: "Card number" }).fill("8888880000000001");
    await page.getByRole("textbox", { name: "PIN" }).fill("1234");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
  });
});
