import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { createRequestListener as CreateRequestListener } from "@react-router/node";
import type { RouterContextProvider, ServerBuild } from "react-router";
import { resetEnvCache } from "~/lib/env.server";

/**
 * Node's own loader, past Vitest's module runner (which keeps its own copy of react-router): the
 * build and @react-router/node must share one react-router, or the build's request context is not
 * the adapter's RouterContextProvider. Node ≥ 20.19 loads ES modules with require().
 */
const requireNatively = createRequire(import.meta.url);
let started = false;

export type TestHttpServer = { url: string; close: () => Promise<void> };

type AppBuild = ServerBuild & {
  entry: {
    module: {
      bootstrap: () => Promise<unknown>;
      createLoadContext: (input: { clientAddress: string | null }) => RouterContextProvider;
    };
  };
};

/**
 * The production server build behind a real HTTP server on a random local port, for tests where
 * something must call the app over the network (a gateway adapter, a notification). Build first
 * (`npm run build`); `env` points it at a test database. PORT is the port it listens on, so the
 * app's own address for calling itself is right.
 */
export async function startHttpServer(env: Record<string, string>): Promise<TestHttpServer> {
  if (started) throw new Error("startHttpServer: once per test file; the build keeps its first environment");
  started = true;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  Object.assign(process.env, env, { PORT: String(port), WORKER: "off", TEST_CLOCK: "1" });
  // This process's own view of the environment (the jobs it runs, for one) follows the server's.
  resetEnvCache();
  const build = requireNatively(path.resolve("build/server/index.js")) as AppBuild;
  const { createRequestListener } = requireNatively("@react-router/node") as {
    createRequestListener: typeof CreateRequestListener;
  };
  await build.entry.module.bootstrap();
  server.on(
    "request",
    sharingTestClock(
      createRequestListener({
        build,
        mode: "production",
        getLoadContext: () => build.entry.module.createLoadContext({ clientAddress: "127.0.0.1" }),
      }),
    ),
  );

  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * POST /__test/clock moves the clock of its caller only, through a cookie. The callers of a test
 * file's server are all one test, calling with fetch and no cookie jar: once one of them has moved
 * the clock, every later request carries the cookie, so it has moved for all of them.
 */
function sharingTestClock(listener: http.RequestListener): http.RequestListener {
  let clockCookie: string | null = null;
  return (req, res) => {
    if (clockCookie) addCookie(req, clockCookie);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      // The adapter passes the headers as an object or as a flat [name, value, …] list.
      const headers = args.find((arg) => typeof arg === "object" && arg !== null) ?? {};
      for (const value of (Array.isArray(headers) ? headers : Object.values(headers)).flat()) {
        clockCookie = /^kp_test_clock=-?\d+/.exec(String(value))?.[0] ?? clockCookie;
      }
      return writeHead(...args);
    }) as typeof res.writeHead;
    listener(req, res);
  };
}

/** The adapter reads the request's raw headers. */
function addCookie(req: http.IncomingMessage, cookie: string) {
  const index = req.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "cookie");
  if (index === -1) req.rawHeaders.push("Cookie", cookie);
  else req.rawHeaders[index + 1] += `; ${cookie}`;
  req.headers.cookie = req.headers.cookie ? `${req.headers.cookie}; ${cookie}` : cookie;
}
