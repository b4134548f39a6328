// The load of scripts/lib/load-test.js `runLoad`, run in a worker thread so that it has its own core:
// `concurrency` loops of keep-alive GETs; only the window after warm-up counts.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { quantile } from "./load-test.js";

async function generate({ port, urlPath, concurrency, warmupMs, durationMs, encoding }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let non2xx = 0,
    not200 = 0,
    errors = 0,
    bytes = 0,
    lastError = "";
  const start = performance.now();
  const measureFrom = start + warmupMs,
    stopAt = measureFrom + durationMs;
  const once = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        { host: "127.0.0.1", port, path: urlPath, agent, headers: { "Accept-Encoding": encoding } },
        (res) => {
          let size = 0;
          res.on("data", (chunk) => (size += chunk.length));
          res.on("end", () => {
            const t1 = performance.now();
            if (res.statusCode < 200 || res.statusCode > 299) non2xx++; // counted in warm-up too
            if (res.statusCode !== 200) not200++;
            if (t0 >= measureFrom && t1 <= stopAt) {
              latencies.push(t1 - t0);
              bytes += size;
            }
            resolve();
          });
        },
      );
      req.on("error", (error) => {
        errors++;
        lastError = error.message;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < stopAt) await once();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => quantile(latencies, q);
  return {
    rps: latencies.length / (durationMs / 1000),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    non2xx,
    not200,
    errors,
    lastError,
    mbps: bytes / 1048576 / (durationMs / 1000),
  };
}

parentPort.postMessage(await generate(workerData));
