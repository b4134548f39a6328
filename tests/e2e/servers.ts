// Where each end-to-end worker's server listens and keeps its database. playwright.config.ts starts
// one server per worker; the worker whose TEST_PARALLEL_INDEX is i (0 ≤ i < workers) uses server i.
import os from "node:os";
import path from "node:path";

const basePort = Number(process.env.E2E_PORT ?? 3210);
// The runner's process names the run; its workers inherit the name, so they find the same directories.
process.env.E2E_RUN_ID ??= String(process.pid);

export function serverPort(index: number) {
  return basePort + index;
}

export function serverUrl(index: number) {
  return `http://localhost:${serverPort(index)}`;
}

export function databaseDir(index: number) {
  return path.join(os.tmpdir(), `kp-e2e-${process.env.E2E_RUN_ID}-${index}`);
}

/** This worker's index; 0 in the runner's own process, which only lists the tests. */
export const workerIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
