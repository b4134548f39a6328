import { sql } from "kysely";
import type { DB } from "~/db/database.server";
import { DELIVER_JOB } from "~/domain/integrations/webhooks.server";
import { now } from "~/lib/clock.server";
import { registerCollector } from "~/lib/metrics.server";
import { openLiveChannels } from "~/web/live-channel.server";

const secondsSince = (at: string | null | undefined) =>
  at ? Math.max(0, (now().getTime() - new Date(at).getTime()) / 1000) : 0;

/**
 * The gauges that are facts in the database, read when `/metrics` is scraped (decision 0043): the
 * queue (waiting jobs and the oldest one's age, by type), the webhook backlog, the reconciler's open
 * differences, this process's live channels and, on Postgres, its connection pool.
 */
export function registerMetricsCollectors(
  db: DB,
  pool?: { totalCount: number; idleCount: number; waitingCount: number },
) {
  const waiting = () =>
    db
      .selectFrom("jobs")
      .select(["type", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.min("run_at").as("oldest")])
      .where("status", "=", "queued")
      .where("run_at", "<=", now().toISOString())
      .groupBy("type")
      .execute();
  registerCollector("kp_jobs_waiting", "Jobs ready to run and not yet taken, by type.", ["type"], async () =>
    (await waiting()).map((row) => ({ labels: { type: row.type }, value: Number(row.n) })),
  );
  registerCollector(
    "kp_job_oldest_waiting_seconds",
    "How long the oldest ready job of each type has waited.",
    ["type"],
    async () =>
      (await waiting()).map((row) => ({
        labels: { type: row.type },
        value: secondsSince(row.oldest as string | null),
      })),
  );
  registerCollector(
    "kp_webhook_oldest_undelivered_seconds",
    "Age of the oldest webhook try waiting to be sent (0: none waits).",
    [],
    async () => {
      const row = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.min("created_at").as("oldest"))
        .where("type", "=", DELIVER_JOB)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirst();
      return [{ value: secondsSince(row?.oldest as string | null | undefined) }];
    },
  );
  registerCollector(
    "kp_reconciliation_open_differences",
    "Differences between the platform's books and the gateways' still open.",
    [],
    async () => {
      const row = await db
        .selectFrom("reconciliation_differences")
        .select(sql<number>`count(*)`.as("n"))
        .where("resolved_at", "is", null)
        .executeTakeFirst();
      return [{ value: Number(row?.n ?? 0) }];
    },
  );
  registerCollector("kp_live_connections", "Live channels (Server-Sent Events) open in this process.", [], async () => [
    { value: openLiveChannels(db) },
  ]);
  if (pool) {
    registerCollector(
      "kp_db_pool_connections",
      "This process's Postgres connections, by state (total, idle, waiting for one).",
      ["state"],
      async () => [
        { labels: { state: "total" }, value: pool.totalCount },
        { labels: { state: "idle" }, value: pool.idleCount },
        { labels: { state: "waiting" }, value: pool.waitingCount },
      ],
    );
  }
}
