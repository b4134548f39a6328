import { defineConfig } from "vitest/config";

const postgres = process.env.TEST_POSTGRES_URL;

/**
 * Unit and integration tests. Every test file makes its own database; the "postgres" project
 * runs the database tests again on Postgres when TEST_POSTGRES_URL is given.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["tests/support/setup.ts"],
    // The HTTP tests import build/server/index.js: rebuilt first when the source has changed.
    globalSetup: ["scripts/ensure-build.js"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: "sqlite",
          include: ["app/**/*.test.ts", "tests/**/*.test.ts"],
          env: { TEST_DB_ENGINE: "sqlite", TEST_CLOCK: "1", WORKER: "off", SANDBOX: "1" },
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: ["app/**/*.integration.test.ts", "tests/**/*.integration.test.ts"],
                env: { TEST_DB_ENGINE: "postgres", TEST_CLOCK: "1", WORKER: "off", SANDBOX: "1" },
              },
            },
          ]
        : []),
    ],
  },
});
