import { errorField, log } from "~/lib/log.server";
import type { DB } from "~/db/database.server";
import { writeTransaction } from "~/db/database.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { nowIso } from "~/lib/clock.server";
import { demoActivityEnabled } from "~/lib/env.server";
import type { RequestMakerInput, RequestMakerResult } from "~/sections/contract";
import { createSession } from "./sessions.server";
import { SessionSchema } from "./session-schema";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_SESSIONS_JOB = "checkout_session_demo";

type DemoSession = {
  order_no: string;
  amount: string;
  first: string;
  last: string;
  email: string;
  lang: "en" | "ar";
  end: "paid" | "open" | "expired";
};

const SESSIONS: DemoSession[] = [
  {
    order_no: "WEB-10421",
    amount: "42.750",
    first: "Fatma",
    last: "Al-Rashidi",
    email: "fatma.r@example.com",
    lang: "en",
    end: "paid",
  },
  {
    order_no: "WEB-10422",
    amount: "18.250",
    first: "عبدالله",
    last: "الشمري",
    email: "abdullah@example.com",
    lang: "ar",
    end: "paid",
  },
  {
    order_no: "WEB-10423",
    amount: "7.500",
    first: "Omar",
    last: "Saleh",
    email: "omar.saleh@example.com",
    lang: "en",
    end: "expired",
  },
  {
    order_no: "WEB-10424",
    amount: "64.000",
    first: "Hessa",
    last: "Al-Mutairi",
    email: "hessa@example.com",
    lang: "ar",
    end: "open",
  },
];

/**
 * The demo merchant's web shop orders as checkout sessions: two paid on the hosted page with the
 * card sandbox (where the sandboxes run), one that expired unpaid, one still open. Run again, it
 * makes only the orders not there yet.
 */
export async function seedDemoSessions(
  db: DB,
  payload: { merchantId: number; userId: number },
  platform: {
    makeRequest: (db: DB, input: RequestMakerInput) => Promise<RequestMakerResult>;
    pay: (sessionId: string, lang: "en" | "ar") => Promise<void>;
  },
) {
  const user = await loadSessionUser(db, payload.userId);
  if (!user) return;
  for (const demo of SESSIONS) {
    const exists = await db
      .selectFrom("checkout_sessions")
      .select("id")
      .where("merchant_id", "=", payload.merchantId)
      .where("order_no", "=", demo.order_no)
      .executeTakeFirst();
    if (exists) continue;
    const made = await createSession(db, {
      merchantId: payload.merchantId,
      user: { id: user.id, username: user.username },
      lang: demo.lang,
      makeRequest: platform.makeRequest,
      request: SessionSchema.parse({
        type: "e_commerce",
        amount: demo.amount,
        currency_code: "KWD",
        pg_codes: ["knet-sandbox", "mpgs-sandbox"],
        order_no: demo.order_no,
        customer_first_name: demo.first,
        customer_last_name: demo.last,
        customer_email: demo.email,
        redirect_url: `https://shop.example.com/orders/${demo.order_no}/return`,
        language: demo.lang,
      }),
    });
    if (!made.ok) throw new Error(`demo session: ${JSON.stringify(made.errors)}`);
    if (demo.end === "expired") {
      const session = await db
        .selectFrom("checkout_sessions")
        .select("transaction_id")
        .where("id", "=", made.sessionId)
        .executeTakeFirstOrThrow();
      await writeTransaction(db, async (trx) => {
        await trx
          .updateTable("transactions")
          .set({ expiration_time: nowIso() })
          .where("id", "=", session.transaction_id)
          .execute();
        await transitionTransaction(
          trx,
          session.transaction_id,
          "expired",
          { kind: "expired" },
          { from: PAYABLE_STATES },
        );
      });
    }
    // Paid only where the sandboxes answer: never a real gateway, never a real customer.
    if (demo.end === "paid" && demoActivityEnabled()) {
      try {
        await platform.pay(made.sessionId, demo.lang);
      } catch (error) {
        log.warn({ error: errorField(error) }, "demo sessions: a session was left unpaid");
      }
    }
  }
}
