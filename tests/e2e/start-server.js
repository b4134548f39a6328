// Starts the built server for the end-to-end run on a database of its own, removed on exit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "../../scripts/ensure-build.js";

// Playwright starts its servers one after another: the first builds if the source has changed.
ensureBuild();

const dir = process.env.E2E_DB_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "kp-e2e-"));
fs.mkdirSync(dir, { recursive: true });
Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: process.env.E2E_PORT ?? "3210",
  SQLITE_PATH: path.join(dir, "e2e.sqlite"),
  DATABASE_URL: "",
  SEED_DEMO: "1",
  // Each test makes the payments it looks at.
  DEMO_ACTIVITY: "0",
  SANDBOX: "1",
  TEST_CLOCK: "1",
  // The webhook receivers of the tests listen on loopback.
  WEBHOOK_ALLOW_PRIVATE: "1",
  BASE_URL: `http://localhost:${process.env.E2E_PORT ?? "3210"}`,
  MAP_STYLE_URL: `http://localhost:${process.env.E2E_PORT ?? "3210"}/__test/map-style.json`,
});
const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
process.on("exit", cleanup);
await import("../../server.js");
