import type { SectionServer } from "../contract";
import { MPGS_TEST_CARDS, MPGS_TEST_EXPIRIES } from "~/domain/sandbox/test-cards";
import { backgroundAddresses } from "~/web/addresses.server";
import { requestMaker } from "../services.server";
import { DEMO_SESSIONS_JOB, seedDemoSessions } from "./domain/demo-sessions.server";
import { deliverSessionEvent, SESSION_WEBHOOK_JOB, tellSessionWebhook } from "./domain/session-webhooks.server";
import { returnUrlOf } from "./domain/session-return.server";
import { expireLapsedSessions } from "./domain/sessions.server";

export const EXPIRE_SESSIONS_JOB = "checkout_session_expire";

const post = (url: string, origin: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

/** Pays a session as its customer would: the card sandbox chosen on the hosted page, the test card on its page, and the way back. */
async function payByCardSandbox(base: string, sessionId: string, lang: "en" | "ar") {
  const payNow = await post(`${base}/${lang}/checkout/${sessionId}`, base, {
    pay_with: "mpgs-sandbox",
    submission_token: `demo-${sessionId}`,
  });
  const location = payNow.headers.get("Location");
  if (payNow.status !== 303 || !location) throw new Error(`Pay answered ${payNow.status}`);
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
  key: "session",
  watchTransitions: tellSessionWebhook,
  customerReturn: (db, input) => returnUrlOf(db, input.transactionId, input.result),
  jobs: {
    [SESSION_WEBHOOK_JOB]: deliverSessionEvent,
    [EXPIRE_SESSIONS_JOB]: async (db) => void (await expireLapsedSessions(db)),
    [DEMO_SESSIONS_JOB]: (db, payload: { merchantId: number; userId: number }) => {
      const addresses = backgroundAddresses();
      return seedDemoSessions(db, payload, {
        makeRequest: requestMaker(),
        pay: (id, lang) => payByCardSandbox(addresses.internalBaseUrl, id, lang),
      });
    },
  },
  schedules: { expire_sessions: { type: EXPIRE_SESSIONS_JOB, everyMs: 30_000 } },
};
