// The machinery the bench scripts share: requests with node:http, the production server and other
// child processes started and stopped, a scratch Postgres database, and the load itself — keep-alive
// GETs from a worker thread (scripts/lib/load-generator.js, so that the load has its own core), set
// beside a bare node:http server answering the same bytes (scripts/lib/bare-server.js): the floor
// for this machine in the same run.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bareServer = fileURLToPath(new URL("./bare-server.js", import.meta.url));
const loadGenerator = new URL("./load-generator.js", import.meta.url);

export const kb = (bytes) => (bytes / 1024).toFixed(1);

/** The value at quantile `q` of ascending `sorted` (NaN when empty). */
export const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/** One GET/POST with node:http; resolves { status, headers, body } with the raw (undecoded) body. */
export function request(url, { method = "GET", headers = {}, body, agent } = {}) {
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

/** The same request, its body read as UTF-8 text. */
export async function requestText(url, options) {
  const answer = await request(url, options);
  return { ...answer, body: answer.body.toString("utf8") };
}

export const freePort = () =>
  new Promise((resolve) => {
    const probe = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * Builds the app when build/server/index.js is missing. `graceSeconds`: a missing build may be
 * someone else's rebuild in progress, so wait that long for it before building over it.
 */
export async function ensureBuild({ graceSeconds = 0 } = {}) {
  const built = () => fs.existsSync(path.join(root, "build/server/index.js"));
  for (let waited = 0; !built() && waited < graceSeconds; waited++)
    await new Promise((resolve) => setTimeout(resolve, 1000));
  if (!built()) {
    console.log("No build/server/index.js: running `npx react-router build` first.");
    if (spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }
}

// Every child started here, so that an interrupted run leaves none behind.
const children = [];

/** Starts a child node process in the project's folder, keeping the tail of its output for error messages. */
export function startChild(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.log = "";
  const keep = (chunk) => {
    child.log = (child.log + chunk).slice(-4000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  children.push(child);
  return child;
}

/** SIGTERM, then SIGKILL after 3 s; resolves once the child has exited. */
export const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });

/** Stops every child started so far. */
export const stopChildren = () => Promise.all(children.splice(0).map(stopChild));

/** On SIGINT or SIGTERM: kill every child, run `cleanUp`, exit 130. */
export function stopChildrenOnInterrupt(cleanUp = () => {}) {
  for (const signal of ["SIGINT", "SIGTERM"])
    process.on(signal, () => {
      for (const child of children) child.kill("SIGKILL");
      cleanUp();
      process.exit(130);
    });
}

/** Resolves once `url` answers 200; throws with the child's output when it exits or `timeoutMs` passes. */
export async function waitFor200(url, child, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (code ${child.exitCode}):\n${child.log}`);
    const answer = await request(url).catch(() => null);
    if (answer?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not answer 200 at ${url} within ${timeoutMs / 1000} s:\n${child.log}`);
}

/**
 * Points the server's `env` at a fresh database for `engine`: a SQLite file in `tmp`, or on the
 * Postgres server at `postgresUrl` a database of its own named `<prefix>_<random>`, with a
 * credentials key of its own. Resolves the function that drops that database afterwards.
 */
export async function pointAtFreshDatabase(env, engine, { tmp, postgresUrl, prefix }) {
  delete env.DATABASE_URL;
  delete env.SQLITE_PATH;
  if (engine !== "postgres") {
    env.SQLITE_PATH = path.join(tmp, "bench.sqlite");
    return async () => {};
  }
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  env.CREDENTIALS_KEY = randomBytes(32).toString("hex");
  return async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}

/**
 * `concurrency` loops of keep-alive GETs of `urlPath` on `port`, from a worker thread; only the
 * `durationMs` after `warmupMs` counts. Resolves { rps, p50, p95, p99, non2xx, not200, errors, lastError, mbps }.
 */
export function runLoad({ port, urlPath, concurrency, warmupMs, durationMs, encoding = "identity" }) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(loadGenerator, {
      workerData: { port, urlPath, concurrency, warmupMs, durationMs, encoding },
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/** A bare node:http server (child process) answering `bodyFile`'s bytes with this status and content type: its port. */
export async function startBareServer(bodyFile, status, contentType) {
  const port = await freePort();
  const child = startChild([bareServer, String(port), bodyFile, String(status), contentType], process.env);
  await waitFor200(`http://127.0.0.1:${port}/`, child, "bare server");
  return { port, child };
}

/**
 * The page at `base + urlPath` once, undecoded: { page, html, bare }, its bytes stored in `tmp` as
 * `fileName` and served by a bare server. Throws `<name> <urlPath> answered <status>` on any answer
 * but 200, and when `mustShow` is given ({ text, what }) and the page lacks its text.
 */
export async function fetchPageAndServeBare({ base, urlPath, name, tmp, fileName, mustShow }) {
  const page = await request(base + urlPath, { headers: { "Accept-Encoding": "identity" } });
  if (page.status !== 200) throw new Error(`${name} ${urlPath} answered ${page.status}`);
  const html = page.body.toString("utf8");
  if (mustShow && !html.includes(mustShow.text))
    throw new Error(`${name} ${urlPath} does not show ${mustShow.what} (no "${mustShow.text}")`);
  const bodyFile = path.join(tmp, fileName);
  fs.writeFileSync(bodyFile, page.body);
  const bare = await startBareServer(bodyFile, page.status, page.headers["content-type"]);
  return { page, html, bare };
}

/**
 * Loads `urlPath` on the app, then on the bare server, per encoding (identity, and gzip unless
 * `flags.gzip` is false), printing a row for each; a non-2xx answer or a socket error goes into
 * `failures`. Prints the target line and answers the app's identity figures.
 */
export async function compareWithBare({ appPort, barePort, urlPath, flags, failures, targetRps }) {
  console.log(
    `Load: ${flags.duration} s after a ${flags.warmup} s warm-up, concurrency ${flags.concurrency}, ${os.cpus().length} CPUs\n`,
  );
  console.log(
    `${"".padEnd(30)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"non-2xx".padStart(9)}${"errors".padStart(8)}${"MB/s".padStart(8)}`,
  );
  let appIdentity;
  for (const encoding of flags.gzip ? ["identity", "gzip"] : ["identity"]) {
    for (const [name, port] of [
      ["app (server.js)", appPort],
      ["bare node:http", barePort],
    ]) {
      const r = await runLoad({
        port,
        urlPath,
        encoding,
        concurrency: flags.concurrency,
        warmupMs: flags.warmup * 1000,
        durationMs: flags.duration * 1000,
      });
      if (name.startsWith("app") && encoding === "identity") appIdentity = r;
      console.log(
        `${`${encoding.padEnd(9)} ${name}`.padEnd(30)}${r.rps.toFixed(0).padStart(9)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${String(r.non2xx).padStart(9)}${String(r.errors).padStart(8)}${r.mbps.toFixed(1).padStart(8)}`,
      );
      if (r.non2xx || r.errors)
        failures.push(`${name} (${encoding}): ${r.non2xx} non-2xx, ${r.errors} errors ${r.lastError}`);
    }
  }
  console.log(
    `Target: at least ${targetRps.toLocaleString("en-US")} requests/s (app, identity): ${appIdentity.rps.toFixed(0)}, ${appIdentity.rps >= targetRps ? "met" : "not met"}\n`,
  );
  return appIdentity;
}

/**
 * The production server (`node server.js`) on a fresh SQLite file in `tmp`, seeded with the demo
 * merchant, its worker on or off: resolves { app, appPort, base, sqlitePath } once /healthz answers 200.
 */
export async function startDemoServer(tmp, { worker }) {
  const appPort = await freePort();
  const sqlitePath = path.join(tmp, "bench.sqlite");
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(appPort),
    SQLITE_PATH: sqlitePath,
    SEED_DEMO: "1",
    DEMO_ACTIVITY: "0",
    WORKER: worker,
    UPLOADS_DIR: path.join(tmp, "uploads"),
  };
  delete env.DATABASE_URL;
  delete env.ROLE;
  const app = startChild(["server.js"], env);
  const base = `http://127.0.0.1:${appPort}`;
  await waitFor200(`${base}/healthz`, app, "server.js");
  return { app, appPort, base, sqlitePath };
}

/**
 * The frame of a page bench, `npm run bench:<name>`: its flags (--duration <s> (10), --concurrency
 * <n> (32), --warmup <s> (2), --no-gzip), the build, a temp directory for the run, and every child
 * stopped and that directory removed afterwards or on an interrupt. `measure(flags, tmp)` is the
 * bench; `afterwards()` runs once its children are stopped. A thrown error prints
 * `bench:<name> failed: …` and sets exit code 1.
 */
export async function runPageBench(name, measure, { afterwards } = {}) {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      concurrency: { type: "string", default: "32" },
      warmup: { type: "string", default: "2" },
      "no-gzip": { type: "boolean", default: false },
    },
  });
  const flags = {
    duration: Number(values.duration),
    concurrency: Number(values.concurrency),
    warmup: Number(values.warmup),
    gzip: !values["no-gzip"],
  };
  if (!(flags.duration > 0 && flags.concurrency >= 1 && flags.warmup >= 0)) {
    console.error(`Usage: node scripts/bench-${name}.js [--duration s] [--concurrency n] [--warmup s] [--no-gzip]`);
    process.exit(2);
  }
  let tmp;
  stopChildrenOnInterrupt(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });
  try {
    await ensureBuild({ graceSeconds: 30 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
    try {
      await measure(flags, tmp);
    } finally {
      await stopChildren();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    await afterwards?.();
  } catch (error) {
    console.error(`\nbench:${name} failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
