import type { SectionServer } from "../contract";
import { queueReceiptMail } from "~/domain/messaging/payment-mail.server";
import { MPGS_TEST_CARDS, MPGS_TEST_EXPIRIES } from "~/domain/sandbox/test-cards";
import { backgroundAddresses } from "~/web/addresses.server";
import { counterForm, listCounterCollectors, makeCounterPayment } from "./presentation/counter.server";
import { DEMO_COLLECTOR_JOB, seedDemoCollector } from "./domain/demo-collector.server";
import { collectorDetails, serializeCollectorPayment } from "./presentation/transactions.server";

const post = (url: string, origin: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

/** Pays a transaction as its customer would: Pay Now with the card sandbox, the test card on its page, and the way back. */
async function payByCardSandbox(base: string, transactionId: string, lang: "en" | "ar") {
  const payNow = await post(`${base}/${lang}/pay/${transactionId}`, base, {
    gateway_code: "mpgs-sandbox",
    submission_token: `demo-${transactionId}`,
  });
  const location = payNow.headers.get("Location");
  if (payNow.status !== 303 || !location) throw new Error(`Pay Now answered ${payNow.status}`);
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
  key: "customer_payment",
  // A customer who paid through a collector and gave an e-mail gets their receipt, written with the payment.
  onTransition: async (trx, event) => {
    if (event.cause.kind !== "payment" || (event.to !== "paid" && event.to !== "authorized")) return;
    if (!event.transaction.customer_email) return;
    await queueReceiptMail(trx, { attemptId: event.cause.attemptId });
  },
  collectorPayment: { list: listCounterCollectors, form: counterForm, make: makeCounterPayment },
  jobs: {
    [DEMO_COLLECTOR_JOB]: (db, payload: { merchantId: number; userId: number }) => {
      const addresses = backgroundAddresses();
      return seedDemoCollector(db, payload, {
        baseUrl: addresses.publicBaseUrl,
        pay: (id, lang) => payByCardSandbox(addresses.internalBaseUrl, id, lang),
      });
    },
  },
  transactions: {
    details: collectorDetails,
    serialize: serializeCollectorPayment,
    // The collector is its own labelled row (collectorDetails); the answers stay as stored, beside their remarks.
    extraKeys: ["collector", "source"],
  },
};
