import type { SectionServer } from "../contract";
import { queueReceiptMail } from "~/domain/messaging/payment-mail.server";
import { env } from "~/lib/env.server";
import { backgroundAddresses } from "~/web/addresses.server";
import { DEMO_BULK_JOB, seedDemoBulk } from "./domain/demo-bulk.server";
import {
  abandonRun,
  dispatchRun,
  DISPATCH_JOB,
  DISPATCH_SLICE_MS,
  DUE_RUNS_JOB,
  startDueRuns,
} from "./domain/bulk-runs.server";

export const sectionServer: SectionServer = {
  key: "bulk",
  // A customer who pays a bulk's request gets a receipt by e-mail, written with the payment.
  onTransition: async (trx, event) => {
    if (
      event.cause.kind !== "payment" ||
      (event.to !== "paid" && event.to !== "authorized") ||
      !event.transaction.customer_email
    )
      return;
    await queueReceiptMail(trx, { attemptId: event.cause.attemptId });
  },
  jobs: {
    // A slice of the run per job, so that the worker's other jobs take their turns in between.
    [DISPATCH_JOB]: (db, payload: { dispatchLogId: number }) =>
      dispatchRun(db, payload.dispatchLogId, { perSecond: env().BULK_SEND_PER_SECOND, sliceMs: DISPATCH_SLICE_MS }),
    [DUE_RUNS_JOB]: async (db) => void (await startDueRuns(db)),
    [DEMO_BULK_JOB]: (db, payload: { merchantId: number; userId: number }) =>
      seedDemoBulk(db, payload, backgroundAddresses().publicBaseUrl),
  },
  // A run whose job is given up: what is left of it is failed (to resend) and the run is finished.
  onGiveUp: { [DISPATCH_JOB]: (db, payload: { dispatchLogId: number }) => abandonRun(db, payload.dispatchLogId) },
  schedules: { start_due_runs: { type: DUE_RUNS_JOB, everyMs: 60_000 } },
};
