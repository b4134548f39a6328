// `npm run bench:menu`: how fast the production server renders the food-ordering public menu, and
// what it ships. Boots `node server.js` on a fresh SQLite file with the demo merchant and its worker on
// (the demo restaurant is made by the section's demo job, `food_demo_menu`), waits until the job has
// written the menu (the voucher WELCOME10 is its last row), then load-tests `/en/new-menu?merchant=<id>`
// with a keep-alive node:http generator (in a worker thread, so it has its own core) and does the same
// against a bare node:http server that answers with the same bytes: the floor for this machine. Then
// it gzips (-9) every JS and CSS file the page loads — the menu is plain HTML, so it should load no
// JavaScript file at all. Exits 1 on a non-2xx answer, a socket error, a failed step or a JavaScript file loaded.
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

/** The demo merchant's id once its demo job has made the menu (read from the SQLite file, read-only). */
async function waitForDemoMenu(file, app, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`server.js exited (code ${app.exitCode}):\n${app.log}`);
    if (fs.existsSync(file)) {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare("select merchant_id from food_vouchers where code_lc = 'welcome10' limit 1").get();
        if (row) return row.merchant_id;
      } catch {
        // The tables are not there yet: the migrations are still running.
      } finally {
        db.close();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the demo menu (job food_demo_menu) was not made within ${timeoutMs / 1000} s:\n${app.log}`);
}

async function main(flags) {
  const built = () => fs.existsSync(path.join(root, "build/server/index.js"));
  // A missing build may be someone else's rebuild in progress: give it 30 s before building over it.
  for (let waited = 0; !built() && waited < 30; waited++) await new Promise((resolve) => setTimeout(resolve, 1000));
  if (!built()) {
    console.log("No build/server/index.js: running `npx react-router build` first.");
    if (spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" }).status !== 0) throw new Error("build failed");
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-menu-"));
  try {
    // 1. The production server on an empty database, seeded with the demo merchant; its worker runs the demo jobs.
    const appPort = await freePort();
    const sqlitePath = path.join(tmp, "bench.sqlite");
    const env = { ...process.env, NODE_ENV: "production", PORT: String(appPort), SQLITE_PATH: sqlitePath, SEED_DEMO: "1", DEMO_ACTIVITY: "0", WORKER: "on", UPLOADS_DIR: path.join(tmp, "uploads") };
    delete env.DATABASE_URL;
    delete env.ROLE;
    const app = startChild(["server.js"], env);
    const base = `http://127.0.0.1:${appPort}`;
    await waitFor200(`${base}/healthz`, app, "server.js");
    const merchantId = await waitForDemoMenu(sqlitePath, app);
    const urlPath = `/en/new-menu?merchant=${merchantId}`;

    // 2. The menu page once: its bytes for the bare server, its assets for the size report.
    const page = await request(base + urlPath, { headers: { "Accept-Encoding": "identity" } });
    if (page.status !== 200) throw new Error(`the menu page ${urlPath} answered ${page.status}`);
    const html = page.body.toString("utf8");
    if (!html.includes("Machboos")) throw new Error(`the menu page ${urlPath} does not show the demo menu (no "Machboos")`);
    const bodyFile = path.join(tmp, "menu.html");
    fs.writeFileSync(bodyFile, page.body);
    const barePort = await freePort();
    const bare = startChild([self, "--bare", String(barePort), bodyFile, String(page.status), page.headers["content-type"]], process.env);
    await waitFor200(`http://127.0.0.1:${barePort}/`, bare, "bare server");

    // 3. The JS and CSS the page loads: <script src>, modulepreload and stylesheet links, inline module imports.
    const failures = [];
    const loaded = new Set();
    for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) loaded.add(src);
    for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
      const rel = tag.match(/\brel="([^"]+)"/)?.[1], href = tag.match(/\bhref="([^"]+)"/)?.[1];
      if (href && (rel === "modulepreload" || rel === "stylesheet")) loaded.add(href);
    }
    for (const [, src] of html.matchAll(/\bimport\s*(?:\(\s*)?(?:[\w*{}\s,$]+\bfrom\s*)?["'](\/[^"'\s]+)["']/g)) loaded.add(src);
    const inlineScripts = [...html.matchAll(/<script\b(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).filter((code) => code.trim() !== "");
    const measure = async (url) => {
      const asset = await request(new URL(url, base), { headers: { "Accept-Encoding": "identity" } });
      if (asset.status !== 200) failures.push(`${url} answered ${asset.status}`);
      return { url, raw: asset.body.length, gz: zlib.gzipSync(asset.body, { level: 9 }).length };
    };
    const assets = [];
    for (const url of loaded) if (/\.(js|css)$/.test(new URL(url, base).pathname)) assets.push(await measure(url));

    // 4. Load: the app, then the bare server, per encoding.
    console.log(`Menu page ${urlPath}: HTML ${kb(page.body.length)} KB, ${kb(zlib.gzipSync(page.body, { level: 9 }).length)} KB gzipped (-9)`);
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
    console.log(`Target: at least 1,000 requests/s (app, identity): ${appIdentity.rps.toFixed(0)}, ${appIdentity.rps >= 1000 ? "met" : "not met"}\n`);

    // 5. Sizes.
    const sum = (files, key) => files.reduce((total, f) => total + f[key], 0);
    for (const [ext, label] of [[".js", "JavaScript"], [".css", "CSS"]]) {
      const files = assets.filter((f) => new URL(f.url, base).pathname.endsWith(ext)).sort((x, y) => y.gz - x.gz);
      console.log(`${label} loaded by the page (${files.length} files; KB gzipped -9, KB raw):`);
      for (const f of files) console.log(`${kb(f.gz).padStart(8)} ${kb(f.raw).padStart(8)}  ${f.url}`);
      console.log(`${kb(sum(files, "gz")).padStart(8)} ${kb(sum(files, "raw")).padStart(8)}  total ${label}\n`);
    }
    const jsFiles = assets.filter((f) => new URL(f.url, base).pathname.endsWith(".js"));
    const inlineBytes = inlineScripts.reduce((total, code) => total + Buffer.byteLength(code), 0);
    // The root writes Mantine's colour-scheme snippet inline on every page: counted apart, it loads nothing.
    console.log(`Inline scripts (not files; the colour-scheme snippet): ${inlineScripts.length}, ${kb(inlineBytes)} KB`);
    const jsTotal = sum(jsFiles, "gz");
    console.log(`Target: 0 KB of JavaScript (the menu is plain HTML): ${kb(jsTotal)} KB in ${jsFiles.length} files, ${jsFiles.length === 0 ? "met" : "not met"}`);
    if (jsFiles.length) failures.push(`the menu page loads JavaScript: ${jsFiles.length} files, ${kb(jsTotal)} KB gzipped`);
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
} else {
  const { values } = parseArgs({ options: { duration: { type: "string", default: "10" }, concurrency: { type: "string", default: "32" }, warmup: { type: "string", default: "2" }, "no-gzip": { type: "boolean", default: false } } });
  const flags = { duration: Number(values.duration), concurrency: Number(values.concurrency), warmup: Number(values.warmup), gzip: !values["no-gzip"] };
  if (!(flags.duration > 0 && flags.concurrency >= 1 && flags.warmup >= 0)) { console.error("Usage: node scripts/bench-menu.js [--duration s] [--concurrency n] [--warmup s] [--no-gzip]"); process.exit(2); }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {
    for (const child of children) child.kill("SIGKILL");
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    await main(flags);
  } catch (error) {
    console.error(`\nbench:menu failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
