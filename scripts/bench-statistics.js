// `npm run bench:statistics`: how fast the statistics home answers on a big merchant, on SQLite and on
// Postgres. Seeds the demo merchant with --transactions rows (scripts/lib/volume.js, as `npm run
// seed:volume`, which also rebuilds the statistics rollup) into bench databases of its own that are kept
// for the next run (a file under the system temp directory, the Postgres database `kp_bench_statistics`),
// adds the audit log entries the app writes for each completed payment attempt, then times the app's own
// query functions: `loadStatistics` for every period (today, this week, this month, this year, two years
// custom), `averageTransactionSize`, `listRecentOrders`, `listRecentActions`, and the whole page's data
// as the home page's loader asks for it (all of them at once, with the sections and gateways). p50 and
// p95 over --runs runs after a warm-up. Figures only, no assertions: the target is printed beside.
// Flags: --transactions <n> (1000000), --engines sqlite,postgres, --runs <n> (50), --keep (reuse the
// bench databases when they hold that many rows), --postgres-url <url>
// (postgres://postgres@127.0.0.1:5432/kp_bench_statistics; dropped and recreated unless --keep).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import pg from "pg";
import { loadApp, redact, seedVolume } from "./lib/volume.js";

const PAGE_TARGET_MS = 200;
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : "-");
/** Nearest-rank percentile of sorted numbers. */
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

function sqliteTarget(count) {
  return { engine: "sqlite", sqlitePath: path.join(os.tmpdir(), "kp-bench", `statistics-${count}.sqlite`) };
}

/** The demo merchant's rows in an existing bench database, or null when there is none. */
async function existingRows(target) {
  const sql =
    "select count(*) as n from transactions where merchant_id = (select id from merchants where name = 'Demo Store')";
  try {
    if (target.engine === "sqlite") {
      if (!fs.existsSync(target.sqlitePath)) return null;
      const db = new SQLite(target.sqlitePath, { fileMustExist: true });
      try {
        return db.prepare(sql).get().n;
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return Number((await client.query(sql)).rows[0].n);
    } finally {
      await client.end();
    }
  } catch {
    return null;
  }
}

async function emptyDatabase(target) {
  if (target.engine === "sqlite") {
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(target.sqlitePath + suffix, { force: true });
    return;
  }
  const url = new URL(target.databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/bench/i.test(name))
    throw new Error(`refusing to drop the database "${name}": a bench database's name contains "bench"`);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/** One audit entry per completed payment attempt, as `completeAttempt` writes them: the recent actions' haystack. */
async function addAuditEntries(db, merchantId) {
  const { sql } = await import("kysely");
  await sql`
    insert into audit_log (merchant_id, actor_user_id, actor_name, action, object_type, object_id, description, ip, created_at)
    select a.merchant_id, null, 'anonymous', 'payment_' || a.state, 'transaction', a.transaction_id,
      'Payment attempt for order #' || t.order_no || ' by ' || a.gateway_code || ': ' || a.state, null, a.completed_at
    from payment_attempts a join transactions t on t.id = a.transaction_id
    where a.merchant_id = ${merchantId} and a.completed_at is not null
    order by a.completed_at`.execute(db);
  await sql`analyze`.execute(db);
}

async function time(runs, work) {
  for (let i = 0; i < Math.min(3, runs); i++) await work();
  const samples = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), result };
}

async function benchEngine(app, modules, target, flags) {
  const label = target.engine === "sqlite" ? "SQLite" : "Postgres";
  console.log(`\n== ${label}: ${target.engine === "sqlite" ? target.sqlitePath : redact(target.databaseUrl)}`);
  const have = await existingRows(target);
  let seedSeconds = null;
  let fresh = false;
  if (flags.keep && have === flags.transactions) {
    console.log(`Reusing the bench database: ${have.toLocaleString("en")} transactions (--keep)`);
  } else {
    if (target.engine === "sqlite") fs.mkdirSync(path.dirname(target.sqlitePath), { recursive: true });
    await emptyDatabase(target);
    const seeded = await seedVolume(app, target, {
      transactions: flags.transactions,
      seed: "bench",
      log: (line) => console.log(`  ${line}`),
    });
    seedSeconds = seeded.seconds;
    fresh = true;
  }

  const db = app.database.createDatabase(
    target.engine === "postgres"
      ? { databaseUrl: target.databaseUrl, poolSize: 10 }
      : { sqlitePath: target.sqlitePath },
  );
  const results = [];
  let rebuildSeconds = null;
  try {
    const merchantId = (
      await db.selectFrom("merchants").select("id").where("name", "=", "Demo Store").executeTakeFirstOrThrow()
    ).id;
    if (fresh) {
      const started = performance.now();
      await addAuditEntries(db, merchantId);
      console.log(
        `  audit log: one entry per completed attempt in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    // The rollup rebuilt once more, timed: what a full rebuild after a bulk load costs.
    const started = performance.now();
    await modules.rollup.rebuildStatisticsRollup(db, merchantId);
    rebuildSeconds = (performance.now() - started) / 1000;
    const rollupRows = Number(
      (
        await db
          .selectFrom("transaction_statistics")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("merchant_id", "=", merchantId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.log(
      `  statistics rollup rebuilt in ${rebuildSeconds.toFixed(1)} s: ${rollupRows.toLocaleString("en")} rows`,
    );

    const user = { id: 0, is_superuser: 1, permissions: [] };
    const now = () => new Date();
    const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
    const twoYearsAgo = new Date(Date.now() + 3 * 3600_000 - 730 * 86_400_000).toISOString().slice(0, 10);
    const resolve = (query) => {
      const outcome = modules.periods.resolvePeriod(query, now());
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
      return outcome.value;
    };
    const statistics = (query) => modules.statistics.loadStatistics(db, merchantId, resolve(query), now());
    const year = Number(today.slice(0, 4));
    const cases = [
      ["statistics, today (by hour)", () => statistics({ period: "day" }), (r) => r.totalPaid.value],
      ["statistics, this week", () => statistics({ period: "week" }), (r) => r.totalPaid.value],
      ["statistics, this month", () => statistics({ period: "month" }), (r) => r.totalPaid.value],
      ["statistics, this year (by month)", () => statistics({ period: "year" }), (r) => r.totalPaid.value],
      [
        `statistics, custom ${twoYearsAgo}..${today}`,
        () => statistics({ period: "custom", date_after: twoYearsAgo, date_before: today }),
        (r) => r.totalPaid.value,
      ],
      [
        `average size, ${year}`,
        () => modules.statistics.averageTransactionSize(db, merchantId, year),
        (r) => r.months.reduce((sum, m) => sum + Object.values(m.values).reduce((s, v) => s + v.count, 0), 0),
      ],
      ["recent orders (10)", () => modules.statistics.listRecentOrders(db, merchantId, user, 10), (r) => r.length],
      ["recent actions (10)", () => modules.statistics.listRecentActions(db, merchantId, user, 10), (r) => r.length],
    ];
    // The home page's loader: everything at once (see routes/dashboard/general-info/home.server.ts).
    const page = (query) => () =>
      Promise.all([
        statistics(query),
        modules.statistics.averageTransactionSize(db, merchantId, year),
        modules.statistics.listRecentOrders(db, merchantId, user, 10),
        modules.statistics.listRecentActions(db, merchantId, user, 10),
        modules.users.loadAvailableSections(db, merchantId),
        db
          .selectFrom("gateways")
          .select(["code", "name_en", "name_ar"])
          .where("merchant_id", "=", merchantId)
          .execute(),
      ]);
    cases.push(["WHOLE PAGE, today (default)", page({ period: "day" }), (r) => r[0].totalPaid.value]);
    cases.push(["WHOLE PAGE, this year", page({ period: "year" }), (r) => r[0].totalPaid.value]);
    for (const [name, work, count] of cases) {
      const measured = await time(flags.runs, work);
      results.push({
        name,
        count: count(measured.result),
        p50: measured.p50,
        p95: measured.p95,
        page: name.startsWith("WHOLE"),
      });
    }
  } finally {
    await db.destroy();
  }
  console.log(`\n${"case".padEnd(48)}${"figure".padStart(10)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(48)}${r.count.toLocaleString("en").padStart(10)}${ms(r.p50).padStart(9)}${ms(r.p95).padStart(9)}${r.page && r.p95 > PAGE_TARGET_MS ? "  > target" : ""}`,
    );
  }
  return { label, seedSeconds, rebuildSeconds, results };
}

async function main(flags) {
  const app = await loadApp();
  const modules = {
    periods: await app.load("/app/domain/statistics/periods.ts"),
    rollup: await app.load("/app/domain/payments/statistics-rollup.server.ts"),
    statistics: await app.load("/app/domain/statistics/statistics.server.ts"),
    users: await app.load("/app/domain/merchants/merchants.server.ts"),
  };
  // The ports the server connects when it starts (the sections' refusals of row actions among them).
  await (await app.load("/app/boot/wiring.server.ts")).wirePlatform();
  const summaries = [];
  try {
    for (const engine of flags.engines) {
      const target =
        engine === "sqlite" ? sqliteTarget(flags.transactions) : { engine: "postgres", databaseUrl: flags.postgresUrl };
      summaries.push(await benchEngine(app, modules, target, flags));
    }
  } finally {
    await app.close();
  }
  console.log(
    `\n== Summary: ${flags.transactions.toLocaleString("en")} transactions, ${flags.runs} runs per case, ${os.cpus().length} CPUs`,
  );
  console.log(`${"".padEnd(48)}${summaries.map((s) => `${s.label} p50/p95 ms`.padStart(24)).join("")}`);
  for (const [index, r] of summaries[0].results.entries()) {
    console.log(
      `${r.name.padEnd(48)}${summaries.map((s) => `${ms(s.results[index].p50)} / ${ms(s.results[index].p95)}`.padStart(24)).join("")}`,
    );
  }
  const worst = Math.max(...summaries.flatMap((s) => s.results.filter((r) => r.page).map((r) => r.p95)));
  console.log(
    `Target: the whole page's data p95 under ${PAGE_TARGET_MS} ms: worst ${ms(worst)} ms, ${worst < PAGE_TARGET_MS ? "met" : "not met"}`,
  );
  for (const s of summaries) {
    console.log(
      `${s.label}: ${s.seedSeconds === null ? "reused" : `seeded in ${s.seedSeconds.toFixed(1)} s`}; rollup rebuild ${s.rebuildSeconds.toFixed(1)} s`,
    );
  }
}

const { values } = parseArgs({
  options: {
    transactions: { type: "string", default: "1000000" },
    engines: { type: "string", default: "sqlite,postgres" },
    runs: { type: "string", default: "50" },
    keep: { type: "boolean", default: false },
    "postgres-url": {
      type: "string",
      default: process.env.BENCH_STATISTICS_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/kp_bench_statistics",
    },
  },
});
const flags = {
  transactions: Number(values.transactions),
  engines: values.engines
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
  runs: Number(values.runs),
  keep: values.keep,
  postgresUrl: values["postgres-url"],
};
if (!(
  Number.isSafeInteger(flags.transactions) &&
  flags.transactions > 0 &&
  Number.isSafeInteger(flags.runs) &&
  flags.runs > 0 &&
  flags.engines.length &&
  flags.engines.every((name) => name === "sqlite" || name === "postgres")
)) {
  console.error(
    "Usage: node scripts/bench-statistics.js [--transactions n] [--engines sqlite,postgres] [--runs n] [--keep] [--postgres-url url]",
  );
  process.exit(2);
}
try {
  await main(flags);
} catch (error) {
  console.error(`\nbench:statistics failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  process.exitCode = 1;
}
