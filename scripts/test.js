// `npm test`: type check, lint, format check (Prettier), production build, unit + integration tests (SQLite, and Postgres when
// TEST_POSTGRES_URL is set), then the end-to-end tests in Chromium. Stops at the first failing step.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.js";

const bin = (name) => path.resolve("node_modules/.bin", name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "kp-test-reports-"));
const vitestReport = path.join(reports, "vitest.json");
const playwrightReport = path.join(reports, "playwright.json");
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function countVitest() {
  if (!fs.existsSync(vitestReport)) return;
  const report = JSON.parse(fs.readFileSync(vitestReport, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright() {
  if (!fs.existsSync(playwrightReport)) return;
  const { stats } = JSON.parse(fs.readFileSync(playwrightReport, "utf8"));
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  totals.skipped += stats?.skipped ?? 0;
}

function finish(ok) {
  fs.rmSync(reports, { recursive: true, force: true });
  console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  if (!process.env.TEST_POSTGRES_URL) console.log("(Postgres not tested: set TEST_POSTGRES_URL to include it.)");
  process.exit(ok ? 0 : 1);
}

if (!run("Type check", bin("react-router"), ["typegen"]) || !run("Type check", bin("tsc"), [])) finish(false);
if (!run("Lint", bin("eslint"), ["."])) finish(false);
if (!run("Format", bin("prettier"), ["--check", "--log-level=warn", "**/*.{ts,tsx,js,cjs,mjs,css}"])) finish(false);
console.log("\n▶ Production build");
try {
  if (!ensureBuild()) console.log("build/ matches the source.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  finish(false);
}

const unitOk = run("Unit and integration tests", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
countVitest();
if (!unitOk) finish(false);

const e2eOk = run("End-to-end tests (Chromium)", bin("playwright"), ["test", "--reporter=list,json"], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
});
countPlaywright();
finish(e2eOk);
