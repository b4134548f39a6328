// `npm run bench:transactions`: how fast the transactions lists answer on a big merchant, on SQLite and
// on Postgres. Seeds the demo merchant with --transactions rows (scripts/lib/volume.js, as
// `npm run seed:volume`) into bench databases that are kept for the next run (a file under the system
// temp directory, the Postgres database `kp_bench`), then times the app's own query functions, for the
// all-transactions list and for the payment-requests section: `listTransactions` on the first page with
// no filter, with state=paid and one month of dates, with a search (the first 8 characters of an
// e-mail, a first name as typed at the start of many e-mails, an order number, a track id, customer names
// in Arabic and English), on page 100, on each status tab,
// and `listStatistics` (the statistics strip); p50 and p95 over --runs runs after a warm-up. Then the
// full CSV export of the all-transactions list with its default fields through `writeReportFile`, in a
// child process (plain node on a Vite SSR bundle of the export module) so its peak memory (VmHWM) is
// the export's own. Figures only, no assertions: the targets are printed beside.
// Flags: --transactions <n> (1000000), --engines sqlite,postgres, --runs <n> (50), --keep (reuse the bench
// databases when they hold that many rows), --skip-export, --postgres-url <url>
// (postgres://postgres@127.0.0.1:5432/kp_bench; its database is dropped and recreated unless --keep).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import pg from "pg";
import { loadApp, redact, root, seedVolume } from "./lib/volume.js";

const self = fileURLToPath(import.meta.url);
const PAGE_TARGET_MS = 50,
  EXPORT_TARGET_S = 60,
  EXPORT_TARGET_MB = 300;
const EXPORT_MODULE = path.join(root, "app/presentation/report-files.server.ts");
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : "-");

/** Nearest-rank percentile of sorted numbers. */
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

// --- The bench databases ----------------------------------------------------------------------

function sqliteTarget(count) {
  return { engine: "sqlite", sqlitePath: path.join(os.tmpdir(), "kp-bench", `transactions-${count}.sqlite`) };
}

/** How many rows the demo merchant has in an existing bench database, or null when there is none. */
async function existingRows(target) {
  try {
    if (target.engine === "sqlite") {
      if (!fs.existsSync(target.sqlitePath)) return null;
      const db = new SQLite(target.sqlitePath, { fileMustExist: true });
      try {
        return db
          .prepare(
            "select count(*) as n from transactions where merchant_id = (select id from merchants where name = 'Demo Store')",
          )
          .get().n;
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select count(*)::int as n from transactions where merchant_id = (select id from merchants where name = 'Demo Store')",
      );
      return rows[0].n;
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

// --- Timing -----------------------------------------------------------------------------------

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

/** The last whole Kuwait calendar month, as the date filter's two days. */
function lastMonth() {
  const kuwait = new Date(Date.now() + 3 * 3600_000);
  const first = new Date(Date.UTC(kuwait.getUTCFullYear(), kuwait.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(kuwait.getUTCFullYear(), kuwait.getUTCMonth(), 0));
  return [first.toISOString().slice(0, 10), last.toISOString().slice(0, 10)];
}

/** Search terms taken from the data: a payment request halfway through, its e-mail and a paid attempt's track id. */
async function searchTerms(db, merchantId) {
  const bounds = await db
    .selectFrom("transactions")
    .select((eb) => [eb.fn.min("order_no").as("low"), eb.fn.max("order_no").as("high")])
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  const middle = Math.floor((Number(bounds.low) + Number(bounds.high)) / 2);
  const row = await db
    .selectFrom("transactions")
    .select(["order_no", "customer_email_lc"])
    .where("merchant_id", "=", merchantId)
    .where("plugin", "=", "payment_request")
    .where("deleted_at", "is", null)
    .where("customer_email_lc", "is not", null)
    .where("order_no", ">=", middle)
    .orderBy("order_no")
    .limit(1)
    .executeTakeFirstOrThrow();
  const paid = await db
    .selectFrom("transactions")
    .innerJoin("payment_attempts", "payment_attempts.id", "transactions.paid_attempt_id")
    .select("payment_attempts.track_id")
    .where("transactions.merchant_id", "=", merchantId)
    .where("transactions.plugin", "=", "payment_request")
    .where("transactions.state", "=", "paid")
    .where("transactions.order_no", ">=", middle)
    .orderBy("transactions.order_no")
    .limit(1)
    .executeTakeFirstOrThrow();
  const email = row.customer_email_lc;
  const name = email.match(/^[a-z]{4,}/)?.[0] ?? email.slice(0, 4);
  return { email: email.slice(0, 8), name, orderNo: String(row.order_no), trackId: paid.track_id };
}

async function benchEngine(app, target, flags) {
  const label = target.engine === "sqlite" ? "SQLite" : "Postgres";
  console.log(`\n== ${label}: ${target.engine === "sqlite" ? target.sqlitePath : redact(target.databaseUrl)}`);
  const have = await existingRows(target);
  let seedSeconds = null;
  if (flags.keep && have === flags.transactions) {
    console.log(
      `Reusing the bench database: ${have.toLocaleString("en")} transactions (--keep); migrating it to the app's schema`,
    );
    const migrating = app.database.createDatabase(
      target.engine === "postgres"
        ? { databaseUrl: target.databaseUrl, poolSize: 1 }
        : { sqlitePath: target.sqlitePath },
    );
    try {
      const applied = await app.migrate.migrateToLatest(migrating);
      if (applied.length) console.log(`  migrations applied: ${applied.join(", ")}`);
    } finally {
      await migrating.destroy();
    }
  } else {
    if (flags.keep)
      console.log(
        `--keep: the bench database has ${have === null ? "no" : have.toLocaleString("en")} demo transactions, not ${flags.transactions.toLocaleString("en")}: seeding it again`,
      );
    await emptyDatabase(target);
    const seeded = await seedVolume(app, target, {
      transactions: flags.transactions,
      seed: "bench",
      log: (line) => console.log(`  ${line}`),
    });
    seedSeconds = seeded.seconds;
  }

  const db = app.database.createDatabase(
    target.engine === "postgres" ? { databaseUrl: target.databaseUrl, poolSize: 4 } : { sqlitePath: target.sqlitePath },
  );
  const results = [];
  let merchantId;
  try {
    merchantId = (
      await db.selectFrom("merchants").select("id").where("name", "=", "Demo Store").executeTakeFirstOrThrow()
    ).id;
    const terms = await searchTerms(db, merchantId);
    const [from, to] = lastMonth();
    const pages = [
      ["first page, no filter", ""],
      [`state=paid, ${from.slice(0, 7)}`, `state=paid&created_after=${from}&created_before=${to}`],
      [`search e-mail "${terms.email}"`, `q=${encodeURIComponent(terms.email)}`],
      [`search e-mail "${terms.name}"`, `q=${encodeURIComponent(terms.name)}`],
      // A first name many e-mails and names start with.
      [`search "saud"`, "q=saud"],
      [`search order no ${terms.orderNo}`, `q=${terms.orderNo}`],
      [`search track id`, `q=${terms.trackId}`],
      ["page 100", "page=100"],
      // Customer names (decision 0019): Arabic, English, and two words with the other spelling of ة.
      [`search name "محمد"`, `q=${encodeURIComponent("محمد")}`],
      [`search name "Fatima"`, `q=Fatima`],
      [`search name "فاطمه الم"`, `q=${encodeURIComponent("فاطمه الم")}`],
      // The status tabs.
      ["tab Paid", "state=paid"],
      ["tab Pending", "state=created,pending,attempted"],
      ["tab Refunded", "state=refunded,partially_refunded"],
    ];
    for (const [scopeName, plugin] of [
      ["all transactions", undefined],
      ["payment requests", "payment_request"],
    ]) {
      const scope = { merchantId, plugin, deleted: false };
      for (const [name, search] of pages) {
        // As the dashboard's list asks: counting stops at its limit (the API counts exactly).
        const query = app.filters.parseListQuery(new URLSearchParams(search));
        const measured = await time(flags.runs, () =>
          app.list.listTransactions(db, scope, query, { countLimit: app.list.countLimitFor(query.filters) }),
        );
        results.push({
          scope: scopeName,
          name,
          count: measured.result.count,
          capped: measured.result.countCapped,
          rows: measured.result.rows.length,
          ...measured,
        });
      }
      const strip = await time(flags.runs, () => app.totals.listStatistics(db, merchantId, plugin));
      results.push({
        scope: scopeName,
        name: "statistics strip",
        count: null,
        rows: strip.result.generated.length,
        ...strip,
      });
    }
  } finally {
    await db.destroy();
  }
  console.log(
    `\n${"list".padEnd(18)}${"case".padEnd(34)}${"matches".padStart(10)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}`,
  );
  for (const r of results) {
    console.log(
      `${r.scope.padEnd(18)}${r.name.padEnd(34)}${(r.count === null ? `${r.rows} cur.` : `${r.capped ? ">" : ""}${(r.capped ? r.count - 1 : r.count).toLocaleString("en")}`).padStart(10)}${ms(r.p50).padStart(9)}${ms(r.p95).padStart(9)}${r.p95 > PAGE_TARGET_MS ? "  > target" : ""}`,
    );
  }

  let exported = null;
  if (!flags.skipExport) exported = await benchExport(target, merchantId);
  return { label, seedSeconds, results, exported };
}

// --- The export, in a child process -----------------------------------------------------------

let bundleDir, exportChildProcess;
/** A Vite SSR bundle of the export module (and the database module it shares), for plain node. */
async function exportBundle() {
  if (bundleDir) return bundleDir;
  const { build } = await import("vite");
  // Under node_modules so the bundle's bare imports (kysely, pg, exceljs…) resolve to the project's packages.
  const dir = path.join(root, "node_modules", ".cache", `kp-bench-export-${process.pid}`);
  await build({
    root,
    configFile: false,
    logLevel: "error",
    resolve: { tsconfigPaths: true },
    ssr: { external: ["better-sqlite3", "pg", "@node-rs/argon2", "nodemailer"] },
    build: {
      ssr: true,
      outDir: dir,
      emptyOutDir: true,
      minify: false,
      copyPublicDir: false,
      rollupOptions: {
        input: { exports: EXPORT_MODULE, database: path.join(root, "app/db/database.server.ts") },
        output: { format: "esm", entryFileNames: "[name].js" },
      },
    },
  });
  bundleDir = dir;
  return dir;
}

async function benchExport(target, merchantId) {
  if (!fs.existsSync(EXPORT_MODULE)) {
    console.log(`\nExport: skipped, ${path.relative(root, EXPORT_MODULE)} is not there yet`);
    return null;
  }
  const dir = await exportBundle();
  const file = path.join(os.tmpdir(), "kp-bench", `export-${process.pid}.csv`);
  const job = JSON.stringify({ dir, target, merchantId, file });
  const child = spawn(process.execPath, [self, "--export-child", job], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  exportChildProcess = child;
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  fs.rmSync(file, { force: true });
  const answer = output.trim().split("\n").pop();
  if (code !== 0 || !answer?.startsWith("{")) throw new Error(`the export child exited with ${code}: ${output}`);
  const result = JSON.parse(answer);
  console.log(
    `\nExport (CSV, all transactions, default fields ${result.fields.join(",")}): ${result.rows.toLocaleString("en")} rows, ` +
      `${(result.bytes / 1048576).toFixed(1)} MB in ${result.seconds.toFixed(1)} s; peak RSS ${result.maxRssMb.toFixed(0)} MB ` +
      `(${result.startRssMb.toFixed(0)} MB with the modules loaded, before the export)`,
  );
  return result;
}

/**
 * This process's peak resident memory, in KB. Linux's VmHWM is the peak of this address space;
 * getrusage's maxRSS also counts the parent's memory at the fork, so it is only the fallback.
 */
function peakRssKb() {
  try {
    const match = fs.readFileSync("/proc/self/status", "utf8").match(/^VmHWM:\s+(\d+) kB/m);
    if (match) return Number(match[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
}

async function exportChild(job) {
  const { dir, target, merchantId, file } = JSON.parse(job);
  const database = await import(path.join(dir, "database.js"));
  const exports = await import(path.join(dir, "exports.js"));
  const db = database.createDatabase(
    target.engine === "postgres" ? { databaseUrl: target.databaseUrl, poolSize: 2 } : { sqlitePath: target.sqlitePath },
  );
  try {
    const config = await exports.exportConfig(db, merchantId, "all", "en");
    const labels = Object.fromEntries(config.builtin_fields.map((field) => [field.name, field.label]));
    const startRssMb = process.memoryUsage().rss / 1048576;
    const started = performance.now();
    const written = await exports.writeReportFile(db, {
      scope: { merchantId, deleted: false },
      filters: {},
      fields: config.default,
      labels,
      format: "csv",
      language: "en",
      filePath: file,
    });
    const seconds = (performance.now() - started) / 1000;
    const maxRssMb = peakRssKb() / 1024;
    console.log(JSON.stringify({ ...written, seconds, maxRssMb, startRssMb, fields: config.default }));
  } finally {
    await db.destroy();
  }
}

// --- Main -------------------------------------------------------------------------------------

async function main(flags) {
  const app = await loadApp();
  const summaries = [];
  try {
    for (const engine of flags.engines) {
      const target =
        engine === "sqlite" ? sqliteTarget(flags.transactions) : { engine: "postgres", databaseUrl: flags.postgresUrl };
      summaries.push(await benchEngine(app, target, flags));
    }
  } finally {
    await app.close();
    if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  }

  console.log(
    `\n== Summary: ${flags.transactions.toLocaleString("en")} transactions, ${flags.runs} runs per case, ${os.cpus().length} CPUs`,
  );
  console.log(`${"".padEnd(52)}${summaries.map((s) => `${s.label} p50/p95 ms`.padStart(24)).join("")}`);
  for (const [index, r] of summaries[0].results.entries()) {
    const cells = summaries.map((s) => `${ms(s.results[index].p50)} / ${ms(s.results[index].p95)}`.padStart(24));
    console.log(`${`${r.scope}: ${r.name}`.padEnd(52)}${cells.join("")}`);
  }
  const worst = Math.max(...summaries.flatMap((s) => s.results.map((r) => r.p95)));
  console.log(
    `Target: every page query p95 under ${PAGE_TARGET_MS} ms: worst ${ms(worst)} ms, ${worst < PAGE_TARGET_MS ? "met" : "not met"}`,
  );
  for (const s of summaries) {
    const seed = s.seedSeconds === null ? "reused" : `seeded in ${s.seedSeconds.toFixed(1)} s`;
    const exp = s.exported
      ? `export ${s.exported.seconds.toFixed(1)} s, peak ${s.exported.maxRssMb.toFixed(0)} MB: ${s.exported.seconds < EXPORT_TARGET_S && s.exported.maxRssMb < EXPORT_TARGET_MB ? "met" : "not met"} (target under ${EXPORT_TARGET_S} s and ${EXPORT_TARGET_MB} MB)`
      : "export not run";
    console.log(`${s.label}: ${seed}; ${exp}`);
  }
}

if (process.argv[2] === "--export-child") {
  await exportChild(process.argv[3]);
} else {
  const { values } = parseArgs({
    options: {
      transactions: { type: "string", default: "1000000" },
      engines: { type: "string", default: "sqlite,postgres" },
      runs: { type: "string", default: "50" },
      keep: { type: "boolean", default: false },
      "skip-export": { type: "boolean", default: false },
      "postgres-url": {
        type: "string",
        default: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/kp_bench",
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
    skipExport: values["skip-export"],
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
      "Usage: node scripts/bench-transactions.js [--transactions n] [--engines sqlite,postgres] [--runs n] [--keep] [--skip-export] [--postgres-url url]",
    );
    process.exit(2);
  }
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (exportChildProcess?.exitCode === null) exportChildProcess.kill("SIGKILL");
      if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
      process.exit(130);
    });
  }
  try {
    await main(flags);
  } catch (error) {
    console.error(`\nbench:transactions failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exitCode = 1;
  }
}
