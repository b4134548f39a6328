// `npm run bench:dashboard`: how much JavaScript the dashboard's first pages make a browser download.
// Builds the app if build/ does not match the source, starts `node server.js` on a fresh SQLite file
// with the demo merchant, signs in as admin with Chromium, then opens each page in a browser context
// of its own (an empty cache, the session cookie only) and sums, over everything the page loads until
// the network is idle, the bytes of script responses as they came over the wire (compressed, as the
// server sent them, headers excluded) and the number of requests. Each figure is printed beside its
// budget; exits 1 when a page is over budget or a step fails.
// Flags: --lang en|ar (en), --verbose (list every script with its size).
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const KB = 1024;
/** The pages and what their scripts may weigh, compressed. */
const PAGES = [
  { name: "statistics home", path: "", budget: 200 * KB },
  { name: "transactions list", path: "/transactions", budget: 150 * KB },
];
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

const { values: flags } = parseArgs({
  options: { lang: { type: "string", default: "en" }, verbose: { type: "boolean", default: false } },
});
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const freePort = () =>
  new Promise((resolve) => {
    const probe = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function waitForHealth(base, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server.js exited (code ${child.exitCode}):\n${child.log}`);
    const ok = await fetch(`${base}/healthz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server.js did not answer /healthz within 60 s:\n${child.log}`);
}

/** Loads one page in a fresh context and sums what came over the wire, from Chromium's own network events. */
async function measure(browser, storageState, url) {
  const context = await browser.newContext({ storageState, viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", ({ requestId, request }) =>
      requests.set(requestId, { url: request.url, type: null, headerBytes: 0, bytes: 0, status: 0 }),
    );
    cdp.on("Network.responseReceived", ({ requestId, type, response }) => {
      const entry = requests.get(requestId);
      if (!entry) return;
      Object.assign(entry, {
        type,
        status: response.status,
        headerBytes: response.encodedDataLength ?? 0,
        encoding: response.headers["content-encoding"] ?? response.headers["Content-Encoding"] ?? "",
      });
    });
    cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
      const entry = requests.get(requestId);
      if (entry) entry.bytes = Math.max(0, encodedDataLength - entry.headerBytes);
    });
    const answer = await page.goto(url, { waitUntil: "networkidle" });
    if (!answer || answer.status() !== 200) throw new Error(`${url} answered ${answer?.status()}`);
    if (new URL(page.url()).pathname.endsWith("/login")) throw new Error(`${url} sent the browser to the sign-in page`);
    const all = [...requests.values()];
    const scripts = all.filter((entry) => entry.type === "Script");
    return {
      requests: all.length,
      scriptRequests: scripts.length,
      scriptBytes: scripts.reduce((sum, entry) => sum + entry.bytes, 0),
      scripts: scripts.sort((a, b) => b.bytes - a.bytes),
      failed: all.filter((entry) => entry.status >= 400),
    };
  } finally {
    await context.close();
  }
}

async function main() {
  ensureBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-dashboard-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SQLITE_PATH: path.join(tmp, "bench.sqlite"),
    SEED_DEMO: "1",
    WORKER: "off",
    UPLOADS_DIR: path.join(tmp, "uploads"),
    REPORTS_DIR: path.join(tmp, "reports"),
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["server.js"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  server.log = "";
  const keep = (chunk) => (server.log = (server.log + chunk).slice(-4000));
  server.stdout.on("data", keep);
  server.stderr.on("data", keep);
  let browser;
  try {
    await waitForHealth(base, server);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    });

    // Sign in through the sign-in page, as a person would; only the session cookie is kept.
    const signInContext = await browser.newContext();
    const signInPage = await signInContext.newPage();
    await signInPage.goto(`${base}/${flags.lang}/login`);
    await signInPage.locator('input[name="username"]').fill("admin");
    await signInPage.locator('input[name="password"]').fill("Demo@2026!");
    await Promise.all([
      signInPage.waitForURL(`${base}/${flags.lang}`),
      signInPage.locator('form button[type="submit"]').first().click(),
    ]);
    const storageState = await signInContext.storageState();
    await signInContext.close();

    console.log(
      `Dashboard pages in Chromium, fresh cache, language ${flags.lang}: JavaScript as sent over the wire (compressed)\n`,
    );
    console.log(
      `${"page".padEnd(20)}${"JS".padStart(11)}${"budget".padStart(11)}${"JS requests".padStart(13)}${"all requests".padStart(14)}  verdict`,
    );
    let over = false;
    for (const entry of PAGES) {
      const figures = await measure(browser, storageState, `${base}/${flags.lang}${entry.path}`);
      const ok = figures.scriptBytes <= entry.budget;
      if (!ok) over = true;
      console.log(
        `${entry.name.padEnd(20)}${kb(figures.scriptBytes).padStart(11)}${kb(entry.budget).padStart(11)}${String(figures.scriptRequests).padStart(13)}${String(figures.requests).padStart(14)}  ${ok ? "within budget" : "OVER BUDGET"}`,
      );
      if (figures.failed.length) {
        over = true;
        for (const failed of figures.failed) console.log(`  failed: ${failed.status} ${failed.url}`);
      }
      if (flags.verbose)
        for (const script of figures.scripts)
          console.log(
            `    ${kb(script.bytes).padStart(9)} ${script.encoding.padEnd(5)} ${new URL(script.url).pathname}`,
          );
    }
    if (over) {
      console.log("\nOver budget: see which scripts with --verbose, and the build's output.");
      process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
