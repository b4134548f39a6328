import { giveUpMail, registerMailAttachment, SEND_MAIL_JOB, sendQueuedMail } from "~/domain/messaging/mail.server";
import { PRUNE_LIVE_JOB, pruneLiveMessages, publishLive } from "~/lib/live.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { PUSH_JOB, sendPushNotification } from "~/domain/messaging/web-push.server";
import { registerMailTemplate } from "~/domain/messaging/mail-templates.server";
import { deliverQueuedSms, giveUpSms, SEND_SMS_JOB } from "~/domain/messaging/sms.server";
import { connectTransitionHooks } from "~/domain/payments/transaction-state.server";
import { connectActionVetoes, type ActionVeto } from "~/domain/payments/transaction-actions.server";
import { abandonExport, EXPORT_JOB } from "~/domain/reporting/exports.server";
import { deliverMpgsNotification, MPGS_NOTIFY_JOB } from "~/domain/sandbox/mpgs-notifications.server";
import {
  PRUNE_JOBS_JOB,
  pruneFinishedJobs,
  registerJobHandler,
  registerSchedule,
  type JobHandler,
} from "~/lib/jobs.server";
import { reconcilePayments, RECONCILE_EVERY_MS, RECONCILE_JOB } from "~/domain/payments/reconciler.server";
import { RETURN_PAYMENT_JOB, runPaymentReturn } from "~/domain/payments/returns.server";
import { compareBooks, COMPARE_BOOKS_EVERY_MS, COMPARE_BOOKS_JOB } from "~/domain/payments/reconciliation.server";
import { backgroundAddresses } from "~/web/addresses.server";
import { connectTexts } from "~/lib/texts.server";
import { runExport } from "~/presentation/report-files.server";
import { platformTexts } from "~/presentation/texts.server";
import { loadSectionServers, transactionExtensions } from "~/sections/registry.server";
import { API_KEY_PLUGINS, SETUP_AREAS } from "~/sections/registry";
import { connectApiKeyPlugins, connectSetupAreas } from "~/domain/identity/api-keys.server";
import { DEMO_ACTIVITY_JOB, runDemoActivity } from "./demo-activity.server";
import { queueRefundMail, REFUND_MAIL_JOB } from "~/domain/messaging/payment-mail.server";
import { writeTransaction, type DB } from "~/db/database.server";
import { deliverWebhook, DELIVER_JOB } from "~/domain/integrations/webhooks.server";

/** The platform's own background jobs; each section's come from its server part. */
export const CORE_JOBS = {
  [SEND_MAIL_JOB]: sendQueuedMail,
  [SEND_SMS_JOB]: deliverQueuedSms,
  [EXPORT_JOB]: (db: DB, payload: { reportId: number }) => runExport(db, payload.reportId, transactionExtensions),
  [MPGS_NOTIFY_JOB]: deliverMpgsNotification,
  [RECONCILE_JOB]: async (db: DB) => void (await reconcilePayments(db, backgroundAddresses())),
  [PRUNE_JOBS_JOB]: pruneFinishedJobs,
  [PRUNE_LIVE_JOB]: pruneLiveMessages,
  [PUSH_JOB]: sendPushNotification,
  [DEMO_ACTIVITY_JOB]: runDemoActivity,
  [REFUND_MAIL_JOB]: (db: DB, payload: { operationId: number }) =>
    writeTransaction(db, (trx) => queueRefundMail(trx, payload)),
  [DELIVER_JOB]: deliverWebhook,
  [RETURN_PAYMENT_JOB]: (db: DB, payload: { attemptId: string }) =>
    runPaymentReturn(db, payload, backgroundAddresses()),
  [COMPARE_BOOKS_JOB]: async (db: DB, payload?: { merchantId?: number }) =>
    void (await compareBooks(db, backgroundAddresses(), { merchantId: payload?.merchantId })),
} as const;

/** What is done when one of the core's jobs is given up. */
const CORE_GIVE_UP: Partial<Record<keyof typeof CORE_JOBS, JobHandler>> = {
  [EXPORT_JOB]: abandonExport,
  // A message whose sending is given up is failed (a retried attempt leaves it queued with its error).
  [SEND_MAIL_JOB]: giveUpMail,
  [SEND_SMS_JOB]: giveUpSms,
};

/** Jobs the worker queues on its own, every so often. */
export const CORE_SCHEDULES = {
  reconciler: { type: RECONCILE_JOB, everyMs: RECONCILE_EVERY_MS },
  prune_jobs: { type: PRUNE_JOBS_JOB, everyMs: 3_600_000 },
  prune_live_messages: { type: PRUNE_LIVE_JOB, everyMs: 3_600_000 },
  // The first comparison waits for the server to be up and a few payments to have settled.
  compare_books: { type: COMPARE_BOOKS_JOB, everyMs: COMPARE_BOOKS_EVERY_MS, startAfterMs: 10 * 60_000 },
} as const;

/**
 * Every change of a transaction's state, to the merchant's users who may see transactions: the
 * transaction's details and the point of sale read it again; a payment completed says so by name.
 */
async function tellLiveChannels(trx: DB, event: TransitionEvent) {
  await publishLive(trx, {
    merchantId: event.transaction.merchant_id,
    permission: "view_paymenttransaction",
    type: event.to === "paid" ? "payment_completed" : "transaction_updated",
    data: { transaction_id: event.transaction.id, plugin: event.transaction.plugin, state: event.to, from: event.from },
  });
}

let wired: Promise<void> | undefined;

/**
 * Connects what the core reaches only through ports: the words it writes (presentation), the
 * sections' hooks on transaction state changes and their refusals of row actions, and every job handler. Explicit, once per
 * process, before any request or job runs — never as a side effect of importing a module.
 */
export function wirePlatform(): Promise<void> {
  wired ??= (async () => {
    connectTexts(platformTexts);
    connectSetupAreas(SETUP_AREAS);
    connectApiKeyPlugins(API_KEY_PLUGINS);
    const servers = await loadSectionServers();
    connectTransitionHooks(
      (key) => servers.get(key)?.onTransition,
      [tellLiveChannels, ...[...servers.values()].flatMap((server) => server.watchTransitions ?? [])],
    );
    const vetoes: [string, ActionVeto][] = [];
    for (const server of servers.values())
      if (server.transactions?.refusedActions) vetoes.push([server.key, server.transactions.refusedActions]);
    connectActionVetoes(() => vetoes);
    for (const [type, handler] of Object.entries(CORE_JOBS)) {
      registerJobHandler(type, handler, { onGiveUp: CORE_GIVE_UP[type as keyof typeof CORE_JOBS] });
    }
    for (const [name, schedule] of Object.entries(CORE_SCHEDULES)) registerSchedule(name, schedule);
    for (const server of servers.values()) {
      for (const [type, handler] of Object.entries(server.jobs ?? {}))
        registerJobHandler(type, handler, { onGiveUp: server.onGiveUp?.[type] });
      for (const [name, schedule] of Object.entries(server.schedules ?? {}))
        registerSchedule(`${server.key}:${name}`, schedule);
      for (const [template, spec] of Object.entries(server.mailTemplates ?? {})) registerMailTemplate(template, spec);
      for (const [type, render] of Object.entries(server.mailAttachments ?? {})) registerMailAttachment(type, render);
    }
  })();
  return wired;
}
