// `npm run bench:catalogue`: how fast the production server renders the catalogue's public product
// list, beside a bare node:http server answering the same bytes in the same run (the floor for this
// machine). Boots `node server.js` on a fresh SQLite file with the demo merchant and its worker on
// (the demo shop is made by the section's demo job, `catalogue_demo_shop`; WELCOME10 is its
// discount), adds products until the shop has about 40, then load-tests
// `/en/catalogue/product-list?merchant=<id>` with keep-alive node:http generators in a worker thread.
// The list is plain HTML: it must load no JavaScript file. Exits 1 on a non-2xx answer, a socket
// error, a failed step or a JavaScript file loaded.
//
// The run is a list of parts (PARTS below), each given the running server: a part measuring
// another catalogue page or job is one more function in that list. Then, with that server stopped,
// the bulk section's bench (scripts/bench-bulk.js) times a 10,000-row bulk's validation and creation
// on SQLite, and on Postgres when TEST_POSTGRES_URL is set.
// Flags: --duration <s> (10), --concurrency <n> (32), --warmup <s> (2), --no-gzip (skip the gzip pass).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import zlib from "node:zlib";
import Database from "better-sqlite3";
import { benchBulk } from "./bench-bulk.js";

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), "..");
const kb = (bytes) => (bytes / 1024).toFixed(1);

/** One GET/POST with node:http; resolves { status, headers, body } with the raw (undecoded) body. */
function request(url, { method = "GET", headers = {}, body, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Load generator (worker thread): `concurrency` loops of keep-alive GETs; only the window after warm-up counts. */
async function generate({ port, urlPath, concurrency, warmupMs, durationMs, encoding }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let non2xx = 0, errors = 0, bytes = 0, lastError = "";
  const start = performance.now();
  const measureFrom = start + warmupMs, stopAt = measureFrom + durationMs;
  const once = () => new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, agent, headers: { "Accept-Encoding": encoding } }, (res) => {
      let size = 0;
      res.on("data", (chunk) => (size += chunk.length));
      res.on("end", () => {
        const t1 = performance.now();
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++; // counted in warm-up too
        if (t0 >= measureFrom && t1 <= stopAt) { latencies.push(t1 - t0); bytes += size; }
        resolve();
      });
    });
    req.on("error", (error) => { errors++; lastError = error.message; resolve(); });
  });
  await Promise.all(Array.from({ length: concurrency }, async () => { while (performance.now() < stopAt) await once(); }));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil(q * latencies.length) - 1))] ?? NaN;
  return { rps: latencies.length / (durationMs / 1000), p50: at(0.5), p99: at(0.99), non2xx, errors, lastError, mbps: bytes / 1048576 / (durationMs / 1000) };
}

/** Bare server (child process): the stored status, content type and body for every request; gzip per request when asked. */
function serveBare([port, bodyFile, status, contentType]) {
  const body = fs.readFileSync(bodyFile);
  http.createServer((req, res) => {
    if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
      zlib.gzip(body, (error, zipped) => {
        res.writeHead(Number(status), { "Content-Type": contentType, "Content-Encoding": "gzip", Vary: "Accept-Encoding", "Content-Length": zipped.length });
        res.end(zipped);
      });
    } else {
      res.writeHead(Number(status), { "Content-Type": contentType, "Content-Length": body.length });
      res.end(body);
    }
  }).listen(Number(port), "127.0.0.1", () => console.log("ready"));
}

const freePort = () => new Promise((resolve) => {
  const probe = http.createServer().listen(0, "127.0.0.1", () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
});

const children = [];
let tmp; // temp directory: the SQLite file, the stored page body
/** Starts a child node process, keeping the tail of its output for error messages. */
function startChild(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.log = "";
  const keep = (chunk) => { child.log = (child.log + chunk).slice(-4000); };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  children.push(child);
  return child;
}

async function waitFor200(url, child, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (code ${child.exitCode}):\n${child.log}`);
    const answer = await request(url).catch(() => null);
    if (answer?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not answer 200 at ${url} within ${timeoutMs / 1000} s:\n${child.log}`);
}

const stopChild = (child) => new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  const force = setTimeout(() => child.kill("SIGKILL"), 3000);
  child.once("exit", () => { clearTimeout(force); resolve(); });
  child.kill("SIGTERM");
});

function runGenerator(options) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(self, { workerData: options });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/** The demo merchant's id once its demo job has made the shop (read from the SQLite file, read-only). */
async function waitForDemoShop(file, app, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`server.js exited (code ${app.exitCode}):\n${app.log}`);
    if (fs.existsSync(file)) {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare("select merchant_id from catalogue_discounts where code_lc = 'welcome10' limit 1").get();
        if (row) return row.merchant_id;
      } catch {
        // The tables are not there yet: the migrations are still running.
      } finally {
        db.close();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the demo shop (job catalogue_demo_shop) was not made within ${timeoutMs / 1000} s:\n${app.log}`);
}

/** More products for the demo shop, up to `total`, as the merchant's pages would write them (some limited, some discounted). */
function addProducts(file, merchantId, total) {
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  try {
    const { count } = db.prepare("select count(*) as count from catalogue_products where merchant_id = ?").get(merchantId);
    const insert = db.prepare(
      "insert into catalogue_products (merchant_id, slug, sku, name_en, name_ar, description_en, description_ar, price, discounted_price, inventory, is_active, position, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
    );
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let index = count + 1; index <= total; index++) {
        const price = 1500 + index * 250;
        insert.run(merchantId, `bench-gift-${index}`, `BN-${index}`, `Gift box no. ${index}`, `صندوق هدية رقم ${index}`, "A gift box from the bench.", "صندوق هدية للقياس.", price, index % 4 === 0 ? price - 500 : null, index % 3 === 0 ? 20 : null, 100 + index, at, at);
      }
    })();
  } finally {
    db.close();
  }
}

/** The product list: its bytes for the bare server, the JS and CSS it loads, then the load against both servers. */
async function productListPart({ base, appPort, merchantId, flags, failures }) {
  const urlPath = `/en/catalogue/product-list?merchant=${merchantId}`;
  const page = await request(base + urlPath, { headers: { "Accept-Encoding": "identity" } });
  if (page.status !== 200) throw new Error(`the product list ${urlPath} answered ${page.status}`);
  const html = page.body.toString("utf8");
  if (!html.includes("Brass dallah coffee pot")) throw new Error(`the product list ${urlPath} does not show the demo shop (no "Brass dallah coffee pot")`);
  const bodyFile = path.join(tmp, "product-list.html");
  fs.writeFileSync(bodyFile, page.body);
  const barePort = await freePort();
  const bare = startChild([self, "--bare", String(barePort), bodyFile, String(page.status), page.headers["content-type"]], process.env);
  await waitFor200(`http://127.0.0.1:${barePort}/`, bare, "bare server");

  const loaded = new Set();
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) loaded.add(src);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const rel = tag.match(/\brel="([^"]+)"/)?.[1], href = tag.match(/\bhref="([^"]+)"/)?.[1];
    if (href && (rel === "modulepreload" || rel === "stylesheet")) loaded.add(href);
  }
  for (const [, src] of html.matchAll(/\bimport\s*(?:\(\s*)?(?:[\w*{}\s,$]+\bfrom\s*)?["'](\/[^"'\s]+)["']/g)) loaded.add(src);
  const assets = [];
  for (const url of loaded) {
    if (!/\.(js|css)$/.test(new URL(url, base).pathname)) continue;
    const asset = await request(new URL(url, base), { headers: { "Accept-Encoding": "identity" } });
    if (asset.status !== 200) failures.push(`${url} answered ${asset.status}`);
    assets.push({ url, raw: asset.body.length, gz: zlib.gzipSync(asset.body, { level: 9 }).length });
  }

  const products = (html.match(/class="c-card shop-card"/g) ?? []).length;
  console.log(`Product list ${urlPath}: ${products} products on the page, HTML ${kb(page.body.length)} KB, ${kb(zlib.gzipSync(page.body, { level: 9 }).length)} KB gzipped (-9)`);
  console.log(`Load: ${flags.duration} s after a ${flags.warmup} s warm-up, concurrency ${flags.concurrency}, ${os.cpus().length} CPUs\n`);
  console.log(`${"".padEnd(30)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"non-2xx".padStart(9)}${"errors".padStart(8)}${"MB/s".padStart(8)}`);
  let appIdentity;
  for (const encoding of flags.gzip ? ["identity", "gzip"] : ["identity"]) {
    for (const [name, port] of [["app (server.js)", appPort], ["bare node:http", barePort]]) {
      const r = await runGenerator({ port, urlPath, encoding, concurrency: flags.concurrency, warmupMs: flags.warmup * 1000, durationMs: flags.duration * 1000 });
      if (name.startsWith("app") && encoding === "identity") appIdentity = r;
      console.log(`${`${encoding.padEnd(9)} ${name}`.padEnd(30)}${r.rps.toFixed(0).padStart(9)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${String(r.non2xx).padStart(9)}${String(r.errors).padStart(8)}${r.mbps.toFixed(1).padStart(8)}`);
      if (r.non2xx || r.errors) failures.push(`${name} (${encoding}): ${r.non2xx} non-2xx, ${r.errors} errors ${r.lastError}`);
    }
  }
  await stopChild(bare);
  console.log(`Target: at least 1,000 requests/s (app, identity): ${appIdentity.rps.toFixed(0)}, ${appIdentity.rps >= 1000 ? "met" : "not met"}\n`);
  // A missed target fails the run (exit 1), as a broken page does.
  if (!(appIdentity.rps >= 1000)) failures.push(`the product list served ${appIdentity.rps.toFixed(0)} requests/s, under the 1,000 targeted`);

  const jsFiles = assets.filter((f) => new URL(f.url, base).pathname.endsWith(".js"));
  const cssFiles = assets.filter((f) => new URL(f.url, base).pathname.endsWith(".css"));
  const sum = (files) => files.reduce((total, f) => total + f.gz, 0);
  console.log(`CSS loaded by the page: ${cssFiles.length} files, ${kb(sum(cssFiles))} KB gzipped (-9)`);
  console.log(`Target: 0 KB of JavaScript (the list is plain HTML): ${kb(sum(jsFiles))} KB in ${jsFiles.length} files, ${jsFiles.length === 0 ? "met" : "not met"}\n`);
  if (jsFiles.length) failures.push(`the product list loads JavaScript: ${jsFiles.length} files`);
}

/** What the run measures, in order; each part gets { base, appPort, merchantId, sqlitePath, flags, failures }. */
export const PARTS = [productListPart];

async function main(flags) {
  const built = () => fs.existsSync(path.join(root, "build/server/index.js"));
  // A missing build may be someone else's rebuild in progress: give it 30 s before building over it.
  for (let waited = 0; !built() && waited < 30; waited++) await new Promise((resolve) => setTimeout(resolve, 1000));
  if (!built()) {
    console.log("No build/server/index.js: running `npx react-router build` first.");
    if (spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" }).status !== 0) throw new Error("build failed");
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-catalogue-"));
  try {
    const appPort = await freePort();
    const sqlitePath = path.join(tmp, "bench.sqlite");
    const env = { ...process.env, NODE_ENV: "production", PORT: String(appPort), SQLITE_PATH: sqlitePath, SEED_DEMO: "1", DEMO_ACTIVITY: "0", WORKER: "on", UPLOADS_DIR: path.join(tmp, "uploads") };
    delete env.DATABASE_URL;
    delete env.ROLE;
    const app = startChild(["server.js"], env);
    const base = `http://127.0.0.1:${appPort}`;
    await waitFor200(`${base}/healthz`, app, "server.js");
    const merchantId = await waitForDemoShop(sqlitePath, app);
    addProducts(sqlitePath, merchantId, 40);
    const failures = [];
    for (const part of PARTS) await part({ base, appPort, merchantId, sqlitePath, flags, failures });
    if (failures.length) throw new Error(`Failures:\n  ${failures.join("\n  ")}`);
  } finally {
    await Promise.all(children.map(stopChild));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (!isMainThread) {
  parentPort.postMessage(await generate(workerData));
} else if (process.argv[2] === "--bare") {
  serveBare(process.argv.slice(3));
} else if (process.argv[1] === self) {
  const { values } = parseArgs({ options: { duration: { type: "string", default: "10" }, concurrency: { type: "string", default: "32" }, warmup: { type: "string", default: "2" }, "no-gzip": { type: "boolean", default: false } } });
  const flags = { duration: Number(values.duration), concurrency: Number(values.concurrency), warmup: Number(values.warmup), gzip: !values["no-gzip"] };
  if (!(flags.duration > 0 && flags.concurrency >= 1 && flags.warmup >= 0)) { console.error("Usage: node scripts/bench-catalogue.js [--duration s] [--concurrency n] [--warmup s] [--no-gzip]"); process.exit(2); }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {
    for (const child of children) child.kill("SIGKILL");
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    await main(flags);
    console.log("");
    const bulk = await benchBulk();
    if (!bulk.ok) process.exitCode = 1;
  } catch (error) {
    console.error(`\nbench:catalogue failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
