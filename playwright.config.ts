import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
// The run's database lives here, so tests can set up what has no screen (a manual-capture gateway).
process.env.E2E_DB_DIR ??= path.join(os.tmpdir(), `kp-e2e-${port}-${process.pid}`);

/**
 * End-to-end tests in Debian's Chromium against the production build, on a fresh database
 * made by tests/e2e/start-server.js for this run (with the test clock enabled).
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: `node tests/e2e/start-server.js`,
    url: `http://localhost:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port), E2E_DB_DIR: process.env.E2E_DB_DIR },
  },
});
