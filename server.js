// The production HTTP server: static assets, compression, the React Router request handler.
import { createRequestHandler } from "@react-router/express";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import compression from "compression";
import express from "express";

// `npm run serve -- --role web|worker|all` says what this process runs, as ROLE does (the flag wins).
const { values: flags } = parseArgs({ options: { role: { type: "string" } }, strict: false });
if (typeof flags.role === "string") process.env.ROLE = flags.role;

const build = await import("./build/server/index.js");
const { createLoadContext, bootstrap, log } = build.entry.module;

let role;
let trustProxy = false;
try {
  const started = await bootstrap();
  role = started.role;
  trustProxy = started.trustProxy;
  log.info({ database: started.database, role }, `Database ready: ${started.database}; role: ${role}`);
  log.info(
    { sandbox: started.sandbox },
    started.sandbox
      ? "Sandbox gateways: on (demo and test mode; SANDBOX=0 turns them off)"
      : "Sandbox gateways: off (production mode; /sandbox/... answers 404)",
  );
} catch (error) {
  // Said to the person starting it, on stderr, before any log is of use.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

/**
 * compression passes a response's 'drain' listeners on to its compressing stream (its res.on) but
 * leaves res.removeListener on the response. React Router writes a page with backpressure: each time
 * a write returns false it waits with res.once("drain") and removes the listener with res.off once
 * drained. The removal never reached the stream, so every wait left a listener on it, and a large page
 * (a list of 100 transactions) reached 11 and the MaxListenersExceededWarning, on every response
 * (expressjs/compression#135; docs/decisions/0020). A response's listeners die with its stream, so
 * memory did not grow across requests. Here removing a 'drain' listener goes where adding it went.
 */
function removeDrainListenersWhereTheyWent(req, res, next) {
  const addListener = res.on;
  const removeListener = res.removeListener;
  let stream = null;
  res.on = function on(type, listener) {
    const target = addListener.call(this, type, listener);
    if (type === "drain" && target !== this) stream = target;
    return this;
  };
  res.removeListener = res.off = function off(type, listener) {
    if (type === "drain" && stream) stream.removeListener(type, listener);
    return removeListener.call(this, type, listener);
  };
  next();
}

const CONTENT_TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/**
 * The build writes a Brotli and a gzip copy beside each script and stylesheet (vite.config.ts): a
 * browser that takes one gets it as it is, compressed once at the best level instead of on every
 * request; compression() leaves an encoded answer alone.
 */
function sendPrecompressed(dir) {
  const copies = new Set(fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => /\.(br|gz)$/.test(name)) : []);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const type = CONTENT_TYPES[path.extname(name)];
    if (!type || name.includes("/")) return next();
    const available = [copies.has(`${name}.br`) && "br", copies.has(`${name}.gz`) && "gzip"].filter(Boolean);
    if (available.length === 0) return next();
    res.vary("Accept-Encoding");
    // Brotli first whenever the browser takes it, whatever order it lists its encodings in.
    const encoding = available.find((candidate) => req.acceptsEncodings(candidate) === candidate);
    if (!encoding) return next();
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Type", type);
    req.url = `/${name}.${encoding === "br" ? "br" : "gz"}`;
    next();
  };
}

// A worker process (ROLE=worker) runs the background jobs and serves no HTTP.
if (role === "worker") {
  log.info({ role }, "Worker running");
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
} else {
  const port = Number(process.env.PORT || 3000);
  const maxBodyBytes = 20 * 1024 * 1024;

  const app = express();
  app.disable("x-powered-by");
  // Every request: an id of ours, one log line when it ends, its duration in the metrics (decision 0043).
  app.use(build.entry.module.createRequestObserver(build));
  // A hop count or the proxies' addresses, never `true` (docs/decisions/0036).
  app.set("trust proxy", trustProxy);
  // Downloads (reports, receipts, attachments) go out as they are: an XLSX is already compressed, and
  // recompressing a large CSV would hold a core for the whole download.
  app.use(
    compression({
      // A download is sent as it is; a live channel (Server-Sent Events) must reach the browser message by message.
      filter: (req, res) =>
        !String(res.getHeader("Content-Disposition") ?? "").startsWith("attachment") &&
        !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") &&
        compression.filter(req, res),
    }),
  );
  app.use(removeDrainListenersWhereTheyWent);

  // Refuse oversized bodies before anything reads them. A body must declare its length: a chunked
  // one could not be refused until it had all been read into memory.
  app.use((req, res, next) => {
    if (req.headers["transfer-encoding"] && req.headers["content-length"] === undefined) {
      res.status(411).type("text/plain").send("Length Required");
      return;
    }
    if (Number(req.headers["content-length"] || 0) > maxBodyBytes) {
      res.status(413).type("text/plain").send("Request too large");
      return;
    }
    next();
  });

  // The Prometheus scraper's page: a bearer token, or a loopback caller without a proxy.
  app.get("/metrics", build.entry.module.createMetricsHandler());

  app.use("/assets", sendPrecompressed("build/client/assets"));
  app.use(
    "/assets",
    express.static("build/client/assets", {
      immutable: true,
      maxAge: "1y",
      setHeaders: (res) => res.setHeader("X-Content-Type-Options", "nosniff"),
    }),
  );
  // Public files all have an extension; pages never do, so they skip the file lookup.
  const publicFiles = express.static("build/client", {
    maxAge: "1h",
    setHeaders: (res) => res.setHeader("X-Content-Type-Options", "nosniff"),
  });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()));

  // Customers before staff: a signed-in request waits while a customer's is in flight (docs/decisions/0035).
  const customerFirst = build.entry.module.createCustomerFirst();
  app.use(customerFirst);

  // The pay page, the busiest page by far, is rendered without the router (docs/decisions/0011).
  const renderPayPage = build.entry.module.createPayPageHandler(build);
  app.get(build.entry.module.PAY_PAGE_PATH, async (req, res, next) => {
    let page;
    try {
      page = await renderPayPage(
        new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`),
        req.headers.cookie,
        {
          method: req.method,
          headers: new Headers({ "user-agent": req.get("user-agent") ?? "" }),
        },
      );
    } catch (error) {
      // The router serves the same page, and its error page if the failure repeats there.
      log.error(
        { error: { message: error instanceof Error ? error.message : String(error) } },
        "a fast page failed; the router serves it",
      );
      return next();
    }
    if (!page) return next();
    try {
      res.status(page.status);
      for (const [name, value] of page.headers) res.setHeader(name, value);
      const body = Buffer.from(page.body);
      res.setHeader("Content-Length", body.length);
      res.end(body);
    } catch (error) {
      next(error);
    }
  });

  // The sections' busiest customer pages (the food menu), rendered the same way.
  const renderSectionPage = build.entry.module.createSectionPagesHandler(build);
  app.get(/^\/(en|ar)\//, async (req, res, next) => {
    let page;
    try {
      page = await renderSectionPage(
        new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`),
        req.headers.cookie,
      );
    } catch (error) {
      // The router serves the same page, and its error page if the failure repeats there.
      log.error(
        { error: { message: error instanceof Error ? error.message : String(error) } },
        "a fast page failed; the router serves it",
      );
      return next();
    }
    if (!page) return next();
    try {
      res.status(page.status);
      for (const [name, value] of page.headers) res.setHeader(name, value);
      const body = Buffer.from(page.body);
      res.setHeader("Content-Length", body.length);
      res.end(body);
    } catch (error) {
      next(error);
    }
  });

  app.all(
    /.*/,
    createRequestHandler({
      build,
      mode: process.env.NODE_ENV,
      getLoadContext: (req) => createLoadContext({ clientAddress: req.ip ?? req.socket.remoteAddress ?? null }),
    }),
  );

  const server = app.listen({ port, backlog: 4096 }, () => {
    log.info({ port }, `Serving on http://localhost:${port}`);
  });
  // Node takes in one connection per turn of its event loop: the gate is told of each.
  server.on("connection", customerFirst.connected);

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 5000).unref();
    });
  }
}
