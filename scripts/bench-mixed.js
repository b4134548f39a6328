// `npm run bench:mixed`: whether the pay page stays fast while staff work, on SQLite and on Postgres.
// For each engine: a fresh database (a SQLite file in a temp directory; on Postgres a database of its
// own, dropped afterwards; Postgres is skipped with a line saying so when it does not answer), filled
// with the demo merchant and --transactions rows (scripts/lib/volume.js, as `npm run seed:volume`), then
// the production server (`node server.js`, role all: the web server with its worker, as a single
// instance runs) with the sandbox gateways on. Payment links are made through the merchant API
// beforehand: --links for the pay-page loads to share (a customer opens their link a few times, not
// one URL for everyone) and one per payment.
//
// Then, after a warm-up that is not counted:
//   1. alone: --pay pay-page loads, all sent at once;
//   2. mixed: the same --pay loads, --payments payments and --staff staff list requests, all started at
//      once in a shuffled order. A payment is what a customer does: the pay page, Pay Now, the KNET or
//      card sandbox's page with a test card, back to the platform and its result page (about six
//      requests, one after the other). A staff request is the dashboard's transactions list, signed in,
//      through its tabs, a search and its pages.
// "At once" means every request in flight from the start, each on a connection of its own: the worst
// case for the server, and what a burst of customers opening links while staff refresh their lists
// looks like from its side. The load comes from this process, the server is a child: both share the
// machine, as they would share nothing else.
//
// A request whose kept-alive connection the server closed as it went out (the idle-timeout race of
// every keep-alive client) is sent once more on a connection of its own, as browsers do, and counted.
//
// It prints each engine's table — the pay page alone and under load (p50, p95, max), the payments and
// the staff lists under load — and the ratio p95(under load) / p95(alone) against the bar of 3×, then
// a summary of both engines. Exits 1 when a request fails (a wrong status, a socket error) or a step
// of the run does; a ratio over the bar is reported, not an error. Figures and findings:
// docs/decisions/0035.
// Flags: --engines sqlite,postgres, --pay <n> (600), --payments <n> (50), --staff <n> (200),
// --links <n> (100), --transactions <n> (20000), --postgres-url <url> (an admin connection to make the
// scratch database with: BENCH_POSTGRES_URL, else TEST_POSTGRES_URL, else postgres://postgres@127.0.0.1:5432/test).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { ensureBuild } from "./ensure-build.js";
import {
  freePort,
  pointAtFreshDatabase,
  quantile,
  startChild,
  stopChild,
  stopChildrenOnInterrupt,
  waitFor200,
} from "./lib/load-test.js";
import { loadApp, seedVolume } from "./lib/volume.js";

const DEMO = { username: "admin", password: "Demo@2026!" };
const BAR = 3;
const CARDS = { knet: "8888880000000001", card: "5123450000000008" };
const STAFF_QUERIES = [
  "",
  "?state=paid",
  "?state=created,pending,attempted",
  "?q=saud",
  "?page=2",
  "?page=3",
  "?state=refunded,partially_refunded",
  "?page=10",
];

// --- HTTP --------------------------------------------------------------------------------------

/** Connections are not shared between the people of a run: each request may open its own. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

/** Requests sent again, once, because the server closed the kept-alive connection they went out on. */
let resent = 0;

/**
 * One request, no redirect followed: { status, location, cookies, text, ms }; throws on a socket
 * error. A kept-alive connection that the server closes just as a request goes out on it (its idle
 * timeout, the race every keep-alive client meets) is reset before any answer: as browsers do, the
 * request is sent once more, on a connection of its own, and counted; its time runs from the first try.
 */
async function call(url, options = {}) {
  const started = performance.now();
  let answer;
  try {
    answer = await callOnce(url, options, agent);
  } catch (error) {
    if (!(error.reusedSocket && ["ECONNRESET", "EPIPE"].includes(error.code))) throw error;
    resent++;
    answer = await callOnce(url, options, false);
  }
  return { ...answer, ms: performance.now() - started };
}

function callOnce(url, { method = "GET", headers = {}, form, json } = {}, through) {
  let body;
  const sent = { ...headers };
  if (form) {
    body = new URLSearchParams(form).toString();
    sent["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (json !== undefined) {
    body = JSON.stringify(json);
    sent["Content-Type"] = "application/json";
  }
  if (body !== undefined) sent["Content-Length"] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: sent, agent: through }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          location: res.headers.location ?? null,
          cookies: res.headers["set-cookie"] ?? [],
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

function expect(answer, statuses, what) {
  if (statuses.includes(answer.status)) return answer;
  // A page's error is its alert; anything else, the start of the body.
  const alert = /role="alert"[^>]*>(.*?)<\/div>/s
    .exec(answer.text)?.[1]
    ?.replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  throw new Error(
    `${what} answered ${answer.status}${answer.location ? ` → ${answer.location}` : ""}: ${alert || answer.text.slice(0, 200)}`,
  );
}

// --- The people ----------------------------------------------------------------------------------

async function apiToken(base) {
  const answer = expect(await call(`${base}/api/v1/user/token/`, { method: "POST", json: DEMO }), [200], "API sign-in");
  return JSON.parse(answer.text).access;
}

/** Signs in on the dashboard's sign-in page, as staff do: the session cookie. */
async function dashboardCookie(base) {
  const answer = await call(`${base}/en/login`, {
    method: "POST",
    headers: { Origin: base },
    form: { intent: "login", ...DEMO },
  });
  const cookie = answer.cookies.map((header) => /^(kp_session=[^;]+)/.exec(header)?.[1]).find(Boolean);
  if (!cookie) throw new Error(`dashboard sign-in answered ${answer.status} without a session cookie`);
  return cookie;
}

/** Payment links through the merchant API, a few at a time: their pay pages' paths. */
async function createLinks(base, token, count) {
  const paths = [];
  const one = async (index) => {
    const amount = `${1 + (index % 40)}.${String((index * 25) % 1000).padStart(3, "0")}`;
    const answer = expect(
      await call(`${base}/api/v1/plugins/payment_request/transaction/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
        json: {
          amount,
          currency_code: "KWD",
          pg_codes: ["knet-sandbox", "mpgs-sandbox"],
          description: `Mixed-load order ${index + 1}`,
          customer_email: "customer@example.com",
        },
      }),
      [201],
      "creating a payment request",
    );
    paths.push(new URL(JSON.parse(answer.text).checkout_url).pathname);
  };
  for (let next = 0; next < count; next += 4)
    await Promise.all(Array.from({ length: Math.min(4, count - next) }, (_, i) => one(next + i)));
  return paths;
}

/** A customer's pay-page load: its time. */
async function payPageLoad(base, payPath) {
  const answer = expect(await call(base + payPath), [200], `pay page ${payPath}`);
  if (!answer.text.includes('name="gateway_code"')) throw new Error(`pay page ${payPath} offers no payment method`);
  return answer.ms;
}

/** A staff member's list request, signed in: its time. */
async function staffList(base, cookie, index) {
  const url = `${base}/en/payment-request/transactions${STAFF_QUERIES[index % STAFF_QUERIES.length]}`;
  const answer = expect(await call(url, { headers: { Cookie: cookie } }), [200], `staff list ${url}`);
  return answer.ms;
}

/**
 * A customer paying a link: the pay page, Pay Now, the gateway's page with a test card, back to the
 * platform and on to its result page. Its time from the first request to the last answer.
 */
async function payment(base, payPath, kind) {
  const started = performance.now();
  const page = expect(await call(base + payPath), [200], "the payment's pay page");
  const token = /name="submission_token"\s+value="([^"]+)"/.exec(page.text)?.[1];
  if (!token) throw new Error(`pay page ${payPath} has no submission token`);
  const payNow = expect(
    await call(base + payPath, {
      method: "POST",
      headers: { Origin: base },
      form: { gateway_code: `${kind}-sandbox`, submission_token: token },
    }),
    [303],
    "Pay Now",
  );
  const gatewayUrl = new URL(payNow.location, base).toString();
  let back;
  if (kind === "knet") {
    const init = expect(await call(gatewayUrl), [303], "KNET init");
    const knetPage = new URL(init.location, gatewayUrl).toString();
    expect(await call(knetPage), [200], "KNET page");
    const submitted = expect(
      await call(knetPage, {
        method: "POST",
        headers: { Origin: base },
        form: { intent: "submit", cardNumber: CARDS.knet, pin: "1234" },
      }),
      [303],
      "KNET submit",
    );
    back = new URL(submitted.location, knetPage).toString();
  } else {
    expect(await call(gatewayUrl), [200], "card page");
    const submitted = expect(
      await call(gatewayUrl, {
        method: "POST",
        headers: { Origin: new URL(gatewayUrl).origin },
        form: { cardNumber: CARDS.card, expiry: "01/39", cvv: "123" },
      }),
      [303],
      "card pay",
    );
    back = new URL(submitted.location, gatewayUrl).toString();
  }
  const returned = expect(await call(back), [200, 302, 303], "return from the gateway");
  if (returned.location) expect(await call(new URL(returned.location, base).toString()), [200], "result page");
  return performance.now() - started;
}

// --- Measuring -------------------------------------------------------------------------------------

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) ?? NaN };
}

/** Runs every task at once; resolves each kind's summary of times, and the failures. */
async function atOnce(tasks) {
  const times = {};
  const failures = [];
  const started = performance.now();
  await Promise.all(
    tasks.map(async ({ kind, run }) => {
      try {
        (times[kind] ??= []).push(await run());
      } catch (error) {
        failures.push(`${kind}: ${error instanceof Error ? error.message : error}`);
      }
    }),
  );
  const wall = performance.now() - started;
  return {
    wall,
    failures,
    ...Object.fromEntries(Object.entries(times).map(([kind, samples]) => [kind, summary(samples)])),
  };
}

/** A deterministic shuffle (the same order every run), so that no kind of request is sent first. */
function shuffled(items) {
  const out = [...items];
  let state = 2026;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function benchEngine(app, engine, flags) {
  const label = engine === "sqlite" ? "SQLite" : "Postgres";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-mixed-${engine}-`));
  const env = { ...process.env };
  for (const name of ["BASE_URL", "INTERNAL_BASE_URL", "ROLE", "WORKER", "TEST_CLOCK", "SESSION_SECRET", "SMTP_URL"])
    delete env[name];
  let dropDatabase = async () => {};
  let server;
  try {
    dropDatabase = await pointAtFreshDatabase(env, engine, {
      tmp,
      postgresUrl: flags.postgresUrl,
      prefix: "bench_mixed",
    });
    console.log(`\n== ${label}`);
    const target =
      engine === "sqlite" ? { engine, sqlitePath: env.SQLITE_PATH } : { engine, databaseUrl: env.DATABASE_URL };
    await seedVolume(app, target, { transactions: flags.transactions, seed: "mixed", log: () => {} });

    const port = await freePort();
    Object.assign(env, {
      NODE_ENV: "production",
      PORT: String(port),
      SEED_DEMO: "1",
      DEMO_ACTIVITY: "0",
      SANDBOX: "1",
      UPLOADS_DIR: path.join(tmp, "uploads"),
      REPORTS_DIR: path.join(tmp, "reports"),
    });
    const base = `http://127.0.0.1:${port}`;
    server = startChild(["server.js"], env);
    await waitFor200(`${base}/healthz`, server, "server.js");

    const token = await apiToken(base);
    const cookies = await Promise.all([1, 2, 3, 4].map(() => dashboardCookie(base)));
    const links = await createLinks(base, token, flags.links + flags.payments + 4);
    const shared = links.slice(0, flags.links);
    const toPay = links.slice(flags.links, flags.links + flags.payments);
    const warmUpPayments = links.slice(flags.links + flags.payments);
    console.log(
      `${flags.transactions.toLocaleString("en")} transactions; ${links.length} payment links made; server ${base}; ${os.cpus().length} CPUs`,
    );

    const payTasks = () =>
      Array.from({ length: flags.pay }, (_, i) => ({
        kind: "pay",
        run: () => payPageLoad(base, shared[i % shared.length]),
      }));
    const staffTasks = Array.from({ length: flags.staff }, (_, i) => ({
      kind: "staff",
      run: () => staffList(base, cookies[i % cookies.length], i),
    }));
    const paymentTasks = toPay.map((payPath, i) => ({
      kind: "payments",
      run: () => payment(base, payPath, i % 2 ? "card" : "knet"),
    }));

    // Warm-up, not counted: every kind of request a few times, so that neither measure pays for the first.
    const warm = await atOnce([
      ...payTasks().slice(0, 100),
      ...staffTasks.slice(0, STAFF_QUERIES.length),
      ...warmUpPayments.map((payPath, i) => ({
        kind: "payments",
        run: () => payment(base, payPath, i % 2 ? "card" : "knet"),
      })),
    ]);
    if (warm.failures.length) throw new Error(`warm-up failed:\n  ${warm.failures.slice(0, 5).join("\n  ")}`);

    resent = 0;
    const alone = await atOnce(payTasks());
    const mixed = await atOnce(shuffled([...payTasks(), ...paymentTasks, ...staffTasks]));
    const failures = [...alone.failures, ...mixed.failures];

    const row = (name, s) =>
      `${name.padEnd(34)}${String(s?.n ?? 0).padStart(6)}${ms(s?.p50).padStart(10)}${ms(s?.p95).padStart(10)}${ms(s?.max).padStart(10)}`;
    console.log(
      `\n${"".padEnd(34)}${"n".padStart(6)}${"p50 ms".padStart(10)}${"p95 ms".padStart(10)}${"max ms".padStart(10)}`,
    );
    console.log(row("pay page, alone", alone.pay));
    console.log(row("pay page, under mixed load", mixed.pay));
    console.log(row("  payments (whole flow)", mixed.payments));
    console.log(row("  staff lists", mixed.staff));
    const ratio = (mixed.pay?.p95 ?? NaN) / (alone.pay?.p95 ?? NaN);
    console.log(`Wall time: alone ${ms(alone.wall)} ms, mixed ${ms(mixed.wall)} ms`);
    if (resent)
      console.log(`Sent again after the server closed the kept-alive connection under them: ${resent} requests`);
    console.log(
      `Pay page p95 under load / alone: ${ratio.toFixed(2)}× (bar: within ${BAR}×): ${ratio <= BAR ? "met" : "not met"}`,
    );
    if (failures.length) console.log(`Failures (${failures.length}):\n  ${failures.slice(0, 10).join("\n  ")}`);
    return {
      label,
      alone: alone.pay,
      mixed: mixed.pay,
      payments: mixed.payments,
      staff: mixed.staff,
      ratio,
      failures: failures.length,
    };
  } finally {
    if (server) await stopChild(server);
    await dropDatabase().catch((error) => console.error(`could not drop the scratch database: ${error.message}`));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : "-");

async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function main(flags) {
  ensureBuild();
  const app = await loadApp();
  const results = [];
  try {
    for (const engine of flags.engines) {
      if (engine === "postgres" && !(await postgresAnswers(flags.postgresUrl))) {
        console.log(
          `\n== Postgres: skipped, nothing answers at ${flags.postgresUrl.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")}`,
        );
        continue;
      }
      results.push(await benchEngine(app, engine, flags));
    }
  } finally {
    await app.close();
    agent.destroy();
  }
  console.log(
    `\n== Summary: ${flags.pay} pay-page loads alone, then with ${flags.payments} payments and ${flags.staff} staff lists, all at once`,
  );
  console.log(
    `${"".padEnd(12)}${"alone p50/p95 ms".padStart(20)}${"under load p50/p95 ms".padStart(24)}${"ratio p95".padStart(12)}  within ${BAR}×`,
  );
  for (const r of results) {
    console.log(
      `${r.label.padEnd(12)}${`${ms(r.alone?.p50)} / ${ms(r.alone?.p95)}`.padStart(20)}${`${ms(r.mixed?.p50)} / ${ms(r.mixed?.p95)}`.padStart(24)}${`${r.ratio.toFixed(2)}×`.padStart(12)}  ${r.ratio <= BAR ? "yes" : "no"}`,
    );
  }
  if (results.some((r) => r.failures > 0)) throw new Error("some requests failed (listed above)");
}

const { values } = parseArgs({
  options: {
    engines: { type: "string", default: "sqlite,postgres" },
    pay: { type: "string", default: "600" },
    payments: { type: "string", default: "50" },
    staff: { type: "string", default: "200" },
    links: { type: "string", default: "100" },
    transactions: { type: "string", default: "20000" },
    "postgres-url": {
      type: "string",
      default:
        process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/test",
    },
  },
});
const flags = {
  engines: values.engines
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
  pay: Number(values.pay),
  payments: Number(values.payments),
  staff: Number(values.staff),
  links: Number(values.links),
  transactions: Number(values.transactions),
  postgresUrl: values["postgres-url"],
};
const counts = [flags.pay, flags.payments, flags.staff, flags.transactions];
if (!(
  counts.every((n) => Number.isSafeInteger(n) && n >= 0) &&
  flags.pay > 0 &&
  flags.links > 0 &&
  flags.transactions > 0 &&
  flags.engines.length &&
  flags.engines.every((name) => name === "sqlite" || name === "postgres")
)) {
  console.error(
    "Usage: node scripts/bench-mixed.js [--engines sqlite,postgres] [--pay n] [--payments n] [--staff n] [--links n] [--transactions n] [--postgres-url url]",
  );
  process.exit(2);
}
stopChildrenOnInterrupt();
try {
  await main(flags);
} catch (error) {
  console.error(`\nbench:mixed failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  process.exitCode = 1;
}
