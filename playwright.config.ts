import { defineConfig } from "@playwright/test";
import { databaseDir, serverPort, serverUrl } from "./tests/e2e/servers";

// Set the number of workers with E2E_WORKERS: each needs a server of its own, and --workers does
// not start more servers.
const workers = Number(process.env.E2E_WORKERS || 2);

/**
 * End-to-end tests in Debian's Chromium against the production build. Files run in parallel (the
 * tests inside a file in order), each worker against a server of its own on a fresh database made
 * by tests/e2e/start-server.js (with the test clock enabled); tests may set up what has no screen
 * (a manual-capture gateway) in that database directly (tests/e2e/servers.ts).
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
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
  // Started one after another, so that only the first builds when the source has changed.
  webServer: Array.from({ length: workers }, (_, index) => ({
    command: `node tests/e2e/start-server.js`,
    url: `${serverUrl(index)}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Stopped with SIGTERM rather than killed, so that start-server.js removes its database.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 5_000 },
    env: { E2E_PORT: String(serverPort(index)), E2E_DB_DIR: databaseDir(index) },
  })),
});
