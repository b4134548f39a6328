import type { SectionServer } from "../contract";
import { MPGS_TEST_CARDS, MPGS_TEST_EXPIRIES } from "~/domain/sandbox/test-cards";
import { backgroundAddresses } from "~/web/addresses.server";
import {
  CALLBACK_JOB,
  deliverCallback,
  expireSession,
  giveUpCallback,
  onShopifyTransition,
} from "./domain/callbacks.server";
import { EXPIRE_JOB } from "./domain/sessions.server";
import { DEMO_SHOPIFY_JOB, seedDemoShop } from "./domain/demo.server";
import { serializeShopPayment, shopDetails } from "./presentation/transactions.server";

const post = (url: string, origin: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

/** Pays a handed-over transaction as its customer would: the card sandbox on the payment options page, the test card, and the way back. */
async function payByCardSandbox(base: string, transactionId: string, lang: "en" | "ar") {
  const payNow = await post(`${base}/${lang}/spf/payment-options/${transactionId}`, base, {
    pay_with: "mpgs-sandbox",
    submission_token: `demo-${transactionId}`,
  });
  const location = payNow.headers.get("Location");
  if (payNow.status !== 303 || !location) throw new Error(`the payment options answered ${payNow.status}`);
  let page = new URL(location, base);
  for (let hops = 0; hops < 5; hops++) {
    const next = (await fetch(page, { redirect: "manual" })).headers.get("Location");
    if (!next) break;
    page = new URL(next, page);
  }
  const submitted = await post(page.href, page.origin, {
    cardNumber: MPGS_TEST_CARDS.mastercard,
    expiry: MPGS_TEST_EXPIRIES.approved,
    cvv: "100",
  });
  const back = submitted.headers.get("Location");
  if (submitted.status !== 303 || !back) throw new Error(`the card page answered ${submitted.status}`);
  await fetch(new URL(back, page), { redirect: "manual" });
}

export const sectionServer: SectionServer = {
  key: "shopify",
  // The shop platform hears how its payment session ended, from a job written with the change.
  onTransition: onShopifyTransition,
  jobs: {
    // The gateways are asked from the worker, at the platform's own address.
    [CALLBACK_JOB]: (db, job) => deliverCallback(db, job, backgroundAddresses()),
    [EXPIRE_JOB]: (db, job) => expireSession(db, job, backgroundAddresses()),
    [DEMO_SHOPIFY_JOB]: (db, payload: { merchantId: number; userId: number }) => {
      const addresses = backgroundAddresses();
      return seedDemoShop(db, payload, { pay: (id, lang) => payByCardSandbox(addresses.internalBaseUrl, id, lang) });
    },
  },
  onGiveUp: { [CALLBACK_JOB]: giveUpCallback },
  transactions: {
    details: shopDetails,
    serialize: serializeShopPayment,
    extraKeys: ["shop"],
    resultUrl: (attemptId, lang) => `/${lang}/spf/payment-details/${attemptId}`,
  },
};
