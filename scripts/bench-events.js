// `npm run bench:events`: an on-sale. Boots the production server (`node server.js`) on a fresh
// database with the demo merchant, creates through the API a paid event with one ticket of 100
// places on one date, then lets 1,000 buyers (each its own address, as behind the platform's proxy)
// book one place each at the same moment through the public booking API. Prints the places sold
// (must be exactly 100: the answers 201 and what the ticket has left), bookings per second and the
// latency of the answers, then the pay page of one booking under load — the same run's baseline.
// On SQLite, and on Postgres when TEST_POSTGRES_URL (or --postgres <url>) names a server: a
// database of its own is made there and dropped afterwards. Exits 1 when a step fails or the places
// sold are not exactly the places there were. Flags: --buyers <n> (1000), --places <n> (100),
// --engines sqlite,postgres, --pay-seconds <s> (5).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  ensureBuild,
  freePort,
  pointAtFreshDatabase,
  quantile,
  requestText,
  runLoad,
  startChild,
  stopChildren,
  stopChildrenOnInterrupt,
  waitFor200,
} from "./lib/load-test.js";

function nextWeek() {
  const date = new Date(Date.now() + 7 * 86_400_000);
  return date.toISOString().slice(0, 10);
}

async function runEngine(engine, flags, postgresUrl) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-events-${engine}-`));
  let dropDatabase;
  try {
    const port = await freePort();
    const env = {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      SEED_DEMO: "1",
      DEMO_ACTIVITY: "0",
      WORKER: "off",
      UPLOADS_DIR: path.join(tmp, "uploads"),
      TRUST_PROXY: "1",
      SANDBOX: "1",
      BASE_URL: `http://127.0.0.1:${port}`,
    };
    dropDatabase = await pointAtFreshDatabase(env, engine, { tmp, postgresUrl, prefix: "bench_events" });
    const server = startChild(["server.js"], env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor200(`${base}/healthz`, server, "server.js", 90_000);

    const json = { "Content-Type": "application/json", Accept: "application/json" };
    const signIn = await requestText(`${base}/api/v1/user/token/`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: "admin", password: "Demo@2026!" }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body}`);
    const { access } = JSON.parse(signIn.body);
    const slug = `on-sale-${randomBytes(4).toString("hex")}`;
    const date = nextWeek();
    const event = {
      slug,
      title_en: "Benchmark on-sale",
      title_ar: "اختبار البيع",
      description_en: "",
      description_ar: "",
      currency_code: "KWD",
      is_free: false,
      status: "published",
      gateway_codes: ["knet-sandbox", "mpgs-sandbox"],
      max_per_booking: 10,
      fields: [],
      tickets: [
        {
          name_en: "Standard",
          name_ar: "عادي",
          price: "5.000",
          start_time: "20:00",
          end_time: "23:00",
          quantity: flags.places,
          dates: [date],
        },
      ],
    };
    const created = await requestText(`${base}/api/v1/plugins/event/dashboard/events`, {
      method: "POST",
      headers: { ...json, Authorization: `Bearer ${access}` },
      body: JSON.stringify(event),
    });
    if (created.status !== 201) throw new Error(`creating the event answered ${created.status}: ${created.body}`);
    const ticketId = JSON.parse(created.body).tickets[0].id;

    // The buyers: all connections open, then every booking sent at the same moment.
    const agent = new http.Agent({ keepAlive: true, maxSockets: flags.buyers });
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: flags.buyers }, async (_, index) => {
        const body = JSON.stringify({
          event: slug,
          ticket: ticketId,
          event_date: date,
          quantity: 1,
          email: `buyer${index}@example.com`,
          customer_first_name: "Buyer",
          customer_last_name: String(index),
          customer_phone: "",
          extra: {},
          gateway_code: "knet-sandbox",
        });
        const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
        const t0 = performance.now();
        const answer = await requestText(`${base}/api/v1/plugins/event/booking`, {
          method: "POST",
          headers: { ...json, "X-Forwarded-For": address },
          body,
          agent,
        }).catch((error) => ({ status: 0, body: String(error) }));
        return { ...answer, ms: performance.now() - t0 };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    const sold = answers.filter((answer) => answer.status === 201);
    const soldOut = answers.filter((answer) => answer.status === 400 && /quantity/.test(answer.body));
    const other = answers.filter(
      (answer) => answer.status !== 201 && !(answer.status === 400 && /quantity/.test(answer.body)),
    );
    const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const left = await requestText(`${base}/api/v1/plugins/event/ticket/qty-list`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ event: slug }),
    });
    const remaining = JSON.parse(left.body);
    const tickets = Array.isArray(remaining) ? remaining : (remaining.tickets ?? remaining.results ?? []);
    const placesLeft = tickets[0]?.remaining_qty_per_date?.[date]?.remaining_quantity;

    const checkout = new URL(JSON.parse(sold[0]?.body ?? "{}").checkout_url ?? `${base}/`);
    const load = await runLoad({
      port,
      urlPath: checkout.pathname,
      concurrency: 32,
      warmupMs: 0,
      durationMs: flags.paySeconds * 1000,
    });
    const pay = { rps: load.rps, p50: load.p50, p95: load.p95, bad: load.not200 + load.errors };

    return {
      engine,
      sold: sold.length,
      soldOut: soldOut.length,
      other: other.length,
      otherSample: other[0] ? `${other[0].status} ${other[0].body.slice(0, 200)}` : "",
      placesLeft,
      bookingsPerSecond: answers.length / seconds,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      pay,
    };
  } finally {
    await stopChildren();
    if (dropDatabase) await dropDatabase().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      buyers: { type: "string", default: "1000" },
      places: { type: "string", default: "100" },
      engines: { type: "string" },
      postgres: { type: "string" },
      "pay-seconds": { type: "string", default: "5" },
    },
  });
  const flags = {
    buyers: Number(values.buyers),
    places: Number(values.places),
    paySeconds: Number(values["pay-seconds"]),
  };
  const postgresUrl = values.postgres ?? process.env.TEST_POSTGRES_URL;
  const engines = (values.engines ?? (postgresUrl ? "sqlite,postgres" : "sqlite")).split(",");
  if (engines.includes("postgres") && !postgresUrl)
    throw new Error("Postgres needs TEST_POSTGRES_URL or --postgres <url>");
  await ensureBuild();
  console.log(
    `On-sale: ${flags.places} places, ${flags.buyers} buyers booking one place each at once; ${os.cpus().length} CPUs.\n`,
  );
  const header = `${"engine".padEnd(10)}${"sold".padStart(6)}${"sold out".padStart(10)}${"other".padStart(7)}${"left".padStart(6)}${"bookings/s".padStart(12)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}  |${"pay page req/s".padStart(16)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}`;
  console.log(header);
  const failures = [];
  for (const engine of engines) {
    const r = await runEngine(engine, flags, postgresUrl);
    console.log(
      `${engine.padEnd(10)}${String(r.sold).padStart(6)}${String(r.soldOut).padStart(10)}${String(r.other).padStart(7)}${String(r.placesLeft).padStart(6)}${r.bookingsPerSecond.toFixed(0).padStart(12)}${r.p50.toFixed(0).padStart(9)}${r.p95.toFixed(0).padStart(9)}  |${r.pay.rps.toFixed(0).padStart(16)}${r.pay.p50.toFixed(1).padStart(9)}${r.pay.p95.toFixed(1).padStart(9)}`,
    );
    if (r.sold !== flags.places) failures.push(`${engine}: ${r.sold} places sold, not ${flags.places}`);
    if (r.placesLeft !== 0) failures.push(`${engine}: the ticket says ${r.placesLeft} places are left, not 0`);
    if (r.other) failures.push(`${engine}: ${r.other} answers neither 201 nor sold out, e.g. ${r.otherSample}`);
    if (r.pay.bad) failures.push(`${engine}: the pay page answered ${r.pay.bad} times without 200`);
  }
  console.log(
    "\nsold: answers 201; sold out: answers 400 naming the quantity; left: what the ticket has left afterwards (ticket/qty-list).",
  );
  console.log(
    "The pay page is one booking's, loaded by 32 keep-alive clients right after the on-sale (the same run's baseline).",
  );
  if (failures.length) throw new Error(failures.join("\n"));
}

stopChildrenOnInterrupt();
try {
  await main();
} catch (error) {
  console.error(`\nbench:events failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
