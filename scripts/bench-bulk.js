// A 10,000-row bulk of payment requests: how long its validation and its creation take. Boots the
// production server (`node server.js`, its worker off so that only the upload is measured) on a
// fresh database with the demo merchant, builds a 10,000-row CSV (every column a merchant would
// fill: amount, e-mail, phone, names, description, remarks, channels, language), and posts it to
// POST /api/v1/plugins/bulk/upload twice: first with its last row wrong (every row is checked and
// nothing is created: the validation alone), then as it is (validation and creation: 10,000
// payment requests, their rows and their messages to send, in one database transaction). The
// creation is the difference. Prints the figures beside the 60 s budget of issue 15.
// On SQLite, and on Postgres when TEST_POSTGRES_URL (or --postgres <url>) names a server: a
// database of its own is made there and dropped afterwards. Exits 1 when a step fails or a figure
// is over the budget. Flags: --rows <n> (10000), --engines sqlite,postgres.
// `benchBulk(options)` is exported so that another bench script can run it and print its lines.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  ensureBuild,
  freePort,
  pointAtFreshDatabase,
  requestText,
  startChild,
  stopChild,
  waitFor200,
} from "./lib/load-test.js";

const self = fileURLToPath(import.meta.url);
const BUDGET_SECONDS = 60;

/** A bulk file of `rows` believable rows; `breakLast` makes its last amount wrong. */
export function bulkFile(rows, breakLast = false) {
  const lines = [
    "amount,customer_email,customer_phone,customer_first_name,customer_last_name,description,remarks,send_email,send_sms,language",
  ];
  for (let index = 0; index < rows; index++) {
    const amount =
      breakLast && index === rows - 1 ? "12.3456" : `${100 + (index % 400)}.${String(index % 1000).padStart(3, "0")}`;
    const phone = `+9655${String(index).padStart(7, "0")}`;
    lines.push(
      `${amount},tenant${index}@example.com,${phone},Tenant,${index},Rent of flat ${index},Building:${index % 50}~Flat:${index},yes,${index % 4 === 0 ? "yes" : "no"},${index % 2 ? "ar" : "en"}`,
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

function multipart(fileName, text) {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="channel"\r\n\r\nemail_sms\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(text, "utf8"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function runEngine(engine, rows, postgresUrl) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-bulk-${engine}-`));
  let server;
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
      SANDBOX: "1",
      UPLOADS_DIR: path.join(tmp, "uploads"),
      BASE_URL: `http://127.0.0.1:${port}`,
    };
    delete env.ROLE;
    dropDatabase = await pointAtFreshDatabase(env, engine, { tmp, postgresUrl, prefix: "bench_bulk" });
    server = startChild(["server.js"], env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor200(`${base}/healthz`, server, "server.js", 90_000);

    const signIn = await requestText(`${base}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "Demo@2026!" }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body}`);
    const { access } = JSON.parse(signIn.body);
    const upload = async (text) => {
      const { body, type } = multipart("bench.csv", text);
      const started = performance.now();
      const answer = await requestText(`${base}/api/v1/plugins/bulk/upload`, {
        method: "POST",
        headers: { Authorization: `Bearer ${access}`, "Content-Type": type, "Content-Length": String(body.length) },
        body,
      });
      return { ...answer, seconds: (performance.now() - started) / 1000 };
    };

    const refused = await upload(bulkFile(rows, true));
    const errors = refused.status === 400 ? JSON.parse(refused.body).rows : null;
    if (!errors || errors.length !== 1 || errors[0].row !== rows + 1)
      throw new Error(`the file with a bad last row answered ${refused.status}: ${refused.body.slice(0, 300)}`);
    const created = await upload(bulkFile(rows));
    if (created.status !== 201)
      throw new Error(`the good file answered ${created.status}: ${created.body.slice(0, 300)}`);
    const answer = JSON.parse(created.body);
    if (answer.created !== rows) throw new Error(`created ${answer.created} requests of ${rows}`);
    return {
      engine,
      rows,
      validation: refused.seconds,
      total: created.seconds,
      creation: Math.max(0, created.seconds - refused.seconds),
    };
  } finally {
    if (server) await stopChild(server);
    if (dropDatabase) await dropDatabase().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs the bulk bench on each engine; answers its figures and the lines it prints (`print: false`
 * leaves the printing to the caller). `ok` is false when a figure is over the budget.
 */
export async function benchBulk({
  rows = 10_000,
  engines,
  postgresUrl = process.env.TEST_POSTGRES_URL,
  print = true,
} = {}) {
  const chosen = engines ?? (postgresUrl ? ["sqlite", "postgres"] : ["sqlite"]);
  if (chosen.includes("postgres") && !postgresUrl)
    throw new Error("Postgres needs TEST_POSTGRES_URL or --postgres <url>");
  await ensureBuild();
  const results = [];
  for (const engine of chosen) results.push(await runEngine(engine, rows, postgresUrl));
  const lines = [
    `Bulk of ${rows.toLocaleString("en-US")} payment requests (budget ${BUDGET_SECONDS} s for validation and creation):`,
  ];
  for (const result of results) {
    const within = result.total <= BUDGET_SECONDS;
    lines.push(
      `  ${result.engine.padEnd(8)} validation ${result.validation.toFixed(2)} s · creation ${result.creation.toFixed(2)} s · both ${result.total.toFixed(2)} s of ${BUDGET_SECONDS} s ${within ? "✓" : "✗ over budget"}`,
    );
  }
  if (print) for (const line of lines) console.log(line);
  return { ok: results.every((result) => result.total <= BUDGET_SECONDS), results, lines };
}

if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const { values } = parseArgs({
    options: { rows: { type: "string", default: "10000" }, engines: { type: "string" }, postgres: { type: "string" } },
  });
  benchBulk({
    rows: Number(values.rows),
    engines: values.engines?.split(","),
    postgresUrl: values.postgres ?? process.env.TEST_POSTGRES_URL,
  })
    .then((outcome) => process.exit(outcome.ok ? 0 : 1))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
