// `npm run chaos:payments`: proves that killing the server at any moment loses no money. Starts the
// built server (`node server.js`, production, in-process worker) on loopback with the demo merchant and
// the sandbox gateways, then at once: simulated customers pay payment links (payment request created
// through the merchant API, pay page, KNET or Mastercard Gateway sandbox page with a test card, return), staff refund
// paid ones in part or in full through the API, and the server is killed with SIGKILL at random moments
// (--kills times, every 0.3–1.5 s of uptime) and restarted each time. Requests that fail while it is
// down are retried for a while, then abandoned, as a customer would. Then the server runs until the
// reconciler has settled everything (no operation pending, no open attempt overdue for an inquiry, the
// books agree; at most --settle seconds), and the script compares, reading the database directly, what
// each sandbox gateway captured and refunded (its own books: sandbox_knet_payments,
// sandbox_mpgs_orders, sandbox_mpgs_transactions) with what the platform recorded (payment attempts,
// ledger entries, transaction operations, transaction totals). It prints a table per gateway and every
// difference left; exit code 1 when there is one (or when a step of the run itself failed).
// Flags: --engine sqlite|postgres|both (both when a Postgres answers at TEST_POSTGRES_URL or
// postgres://postgres@127.0.0.1:5432/test, else sqlite), --kills <n> (30), --customers <n> (4),
// --staff <n> (2), --settle <s> (240), --seed <n> (random; the same seed makes the same choices, not
// the same run), --keep (keep the database and the server's log; the Postgres database is not dropped),
// --books <SQLite file | postgres:// URL> (no run: only compare the books of that database).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import {
  Abandoned,
  DEFAULT_ADMIN_URL,
  Merchant,
  Server,
  backlog,
  between,
  compare,
  createPostgresDatabase,
  customerFlow,
  dropPostgresDatabase,
  freePort,
  openReader,
  postgresReachable,
  printReport,
  readBooks,
  setSeed,
  sleep,
  staffRefund,
} from "./lib/chaos.js";
import { ensureBuild } from "./ensure-build.js";

const cleanups = [];

async function runEngine(engine, flags) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `chaos-${engine}-`));
  const sqlitePath = path.join(tmp, "chaos.sqlite");
  let database = null;
  let server = null;
  const cleanup = async () => {
    await server?.stop().catch(() => undefined);
    if (flags.keep) return;
    if (database)
      await dropPostgresDatabase(flags.adminUrl, database.name).catch((error) =>
        console.error(`could not drop ${database.name}: ${error.message}`),
      );
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  cleanups.push(cleanup);
  try {
    if (engine === "postgres") database = await createPostgresDatabase(flags.adminUrl);
    const credentialsKey = randomBytes(32).toString("hex");
    const port = await freePort();
    const env = { ...process.env };
    for (const name of ["BASE_URL", "INTERNAL_BASE_URL", "ROLE", "WORKER", "TEST_CLOCK", "SESSION_SECRET", "SMTP_URL"])
      delete env[name];
    Object.assign(env, {
      NODE_ENV: "production",
      PORT: String(port),
      SQLITE_PATH: sqlitePath,
      DATABASE_URL: database ? database.url : "",
      // Postgres keeps no key file beside a database: every server of this run seals with one key.
      ...(database ? { CREDENTIALS_KEY: credentialsKey } : {}),
      SEED_DEMO: "1",
      DEMO_ACTIVITY: "0",
      SANDBOX: "1",
      RECONCILER_GRACE_SECONDS: "2",
      UPLOADS_DIR: path.join(tmp, "uploads"),
      REPORTS_DIR: path.join(tmp, "reports"),
    });
    server = new Server({ env, logFile: path.join(tmp, "server.log") });
    console.log(
      `\n== ${engine}: ${database ? `database ${database.name}` : sqlitePath}; server on ${server.base}; ${flags.kills} kills`,
    );
    await server.start();

    const stats = {
      requests: 0,
      attempts: { knet: 0, mpgs: 0 },
      submitted: { knet: 0, mpgs: 0 },
      closedTab: 0,
      cameBack: 0,
      twoTabs: 0,
      flows: {},
      retries: 0,
      abandoned: {},
      failures: [],
      refunds: { asked: 0, duplicates: 0, done: 0, checking: 0, refused: 0, abandoned: 0, other: 0 },
    };
    const merchant = new Merchant(server, stats);
    await merchant.signIn();
    const ctx = { server, merchant, stats, paid: new Set(), twoTabs: new Set() };

    // People keep coming while the server is being killed; they stop starting new things after the last kill.
    let chaosOver = false;
    const started = Date.now();
    const note = (outcome) => (stats.flows[outcome] = (stats.flows[outcome] ?? 0) + 1);
    const person = async (work) => {
      while (!chaosOver) {
        try {
          note(await work(ctx));
        } catch (error) {
          if (error instanceof Abandoned) {
            const reason = error.message.replace(/:.*/s, "");
            stats.abandoned[reason] = (stats.abandoned[reason] ?? 0) + 1;
          } else {
            stats.failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
            if (stats.failures.length > 20) throw error;
            await sleep(500);
          }
        }
      }
    };
    const people = [
      ...Array.from({ length: flags.customers }, () => person(customerFlow)),
      ...Array.from({ length: flags.staff }, () =>
        person(async (c) => {
          await sleep(between(100, 400));
          return `refund ${await staffRefund(c)}`;
        }),
      ),
    ];
    const downtimes = [];
    const chaos = (async () => {
      try {
        await sleep(1500);
        for (let kill = 1; kill <= flags.kills; kill++) {
          await sleep(between(300, 1500));
          await server.kill();
          const down = Date.now();
          await server.start();
          downtimes.push(Date.now() - down);
          if (kill % 10 === 0 || kill === flags.kills)
            process.stdout.write(
              `  ${kill} kills, ${stats.requests} links, ${stats.submitted.knet + stats.submitted.mpgs} paid at a gateway, ${stats.refunds.asked} refunds asked\n`,
            );
        }
      } finally {
        chaosOver = true;
      }
    })();
    await chaos;
    await Promise.all(people);
    const chaosSeconds = (Date.now() - started) / 1000;
    const averageDown = downtimes.reduce((a, b) => a + b, 0) / Math.max(1, downtimes.length);
    console.log(
      `  chaos: ${chaosSeconds.toFixed(0)} s, ${flags.kills} SIGKILLs (down ${(averageDown / 1000).toFixed(1)} s on average until answering again), ${stats.retries} requests retried`,
    );
    console.log(
      `  customers: ${stats.requests} links created; attempts KNET ${stats.attempts.knet}, MPGS ${stats.attempts.mpgs}; card details submitted KNET ${stats.submitted.knet}, MPGS ${stats.submitted.mpgs}; ${stats.closedTab} closed the tab after paying, ${stats.cameBack} came back to the link after a failed page, ${stats.twoTabs} paid in two tabs`,
    );
    console.log(
      `  outcomes: ${Object.entries(stats.flows)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    if (Object.keys(stats.abandoned).length)
      console.log(
        `  abandoned at: ${Object.entries(stats.abandoned)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );
    const r = stats.refunds;
    console.log(
      `  staff refunds: ${r.asked} asked (${r.duplicates} of duplicate payments); ${r.done} done, ${r.checking} being checked (202), ${r.refused} refused (400), ${r.abandoned} abandoned, ${r.other} other`,
    );

    // Let the reconciler settle everything, then compare.
    const reader = await openReader(engine, { sqlitePath, databaseUrl: database?.url });
    let result;
    try {
      const settleStarted = Date.now();
      let lastShown = 0;
      for (;;) {
        const waiting = await backlog(reader);
        result = compare(await readBooks(reader));
        const caughtUp = waiting.operations === 0 && waiting.attempts === 0;
        const elapsed = Date.now() - settleStarted;
        if (caughtUp && result.differences.length === 0) break;
        if (elapsed > flags.settle * 1000) {
          console.log(
            `  not settled after ${flags.settle} s: ${waiting.operations} operations pending, ${waiting.attempts} attempts overdue for an inquiry`,
          );
          break;
        }
        if (elapsed - lastShown >= 15_000) {
          lastShown = elapsed;
          console.log(
            `  settling (${(elapsed / 1000).toFixed(0)} s): ${waiting.operations} operations pending, ${waiting.attempts} attempts overdue, ${result.differences.length} differences`,
          );
        }
        if (server.child.exitCode !== null || server.child.signalCode !== null)
          throw new Error(`server.js stopped while settling:\n${server.tail}`);
        await sleep(2000);
      }
      console.log(`  settled in ${((Date.now() - settleStarted) / 1000).toFixed(0)} s`);
      await server.stop();
      result = compare(await readBooks(reader));
    } finally {
      await reader.close();
    }
    const late = result.late;
    console.log(
      `  refunds settled 30 s or more after they were asked (by the reconciler, their request having died): ${late.succeeded} made, ${late.released} released as never received by the gateway`,
    );
    printReport(engine, result.summary, result.differences);
    if (stats.failures.length) {
      console.log(`  the run itself failed ${stats.failures.length} times:`);
      for (const failure of stats.failures.slice(0, 5))
        console.log(`    ${failure.split("\n").slice(0, 3).join("\n    ")}`);
    }
    if (flags.keep) console.log(`  kept: ${tmp} (server.log)${database ? `, database ${database.url}` : ""}`);
    return result.differences.length === 0 && stats.failures.length === 0;
  } finally {
    await cleanup();
    cleanups.splice(cleanups.indexOf(cleanup), 1);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      engine: { type: "string" },
      kills: { type: "string", default: "30" },
      customers: { type: "string", default: "4" },
      staff: { type: "string", default: "2" },
      settle: { type: "string", default: "240" },
      seed: { type: "string" },
      keep: { type: "boolean", default: false },
      books: { type: "string" },
    },
  });
  if (values.books) {
    // Only the comparison, on a database left by an earlier run (--keep) or any other.
    const engine = /^postgres(ql)?:\/\//.test(values.books) ? "postgres" : "sqlite";
    const reader = await openReader(engine, { sqlitePath: values.books, databaseUrl: values.books });
    try {
      const { summary, differences } = compare(await readBooks(reader));
      printReport(engine, summary, differences);
      process.exitCode = differences.length ? 1 : 0;
    } finally {
      await reader.close();
    }
    return;
  }
  const flags = {
    kills: Number(values.kills),
    customers: Number(values.customers),
    staff: Number(values.staff),
    settle: Number(values.settle),
    keep: values.keep,
    adminUrl: process.env.TEST_POSTGRES_URL || DEFAULT_ADMIN_URL,
  };
  const usage =
    "Usage: npm run chaos:payments -- [--engine sqlite|postgres|both] [--kills n] [--customers n] [--staff n] [--settle s] [--seed n] [--keep] [--books db]";
  if (
    !(
      Number.isInteger(flags.kills) &&
      flags.kills >= 0 &&
      flags.customers >= 1 &&
      flags.staff >= 0 &&
      flags.settle > 0
    ) ||
    (values.engine && !["sqlite", "postgres", "both"].includes(values.engine))
  ) {
    console.error(usage);
    process.exit(2);
  }
  const seed = values.seed !== undefined ? Number(values.seed) | 0 : randomBytes(4).readInt32LE();
  setSeed(seed);
  const engine = values.engine ?? ((await postgresReachable(flags.adminUrl)) ? "both" : "sqlite");
  const engines = engine === "both" ? ["sqlite", "postgres"] : [engine];
  if (engines.includes("postgres") && !(await postgresReachable(flags.adminUrl))) {
    console.error(`No Postgres answers at ${flags.adminUrl} (TEST_POSTGRES_URL).`);
    process.exit(2);
  }
  ensureBuild();
  console.log(`chaos:payments on ${engines.join(" and ")}, seed ${seed}`);
  let clean = true;
  for (const one of engines) {
    try {
      if (!(await runEngine(one, flags))) clean = false;
    } catch (error) {
      clean = false;
      console.error(`\n${one}: the run failed: ${error instanceof Error ? error.message : error}`);
    }
  }
  console.log(
    clean
      ? "\nNo differences: every payment and refund the gateways made is recorded, and nothing else."
      : "\nDifferences found (see above).",
  );
  process.exitCode = clean ? 0 : 1;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    for (const cleanup of [...cleanups]) await cleanup().catch(() => undefined);
    process.exit(130);
  });
}

await main();
