// `npm run bench:pay`: how fast the production server renders a payment page, and how much it ships.
// Boots `node server.js` on a fresh SQLite file with the demo merchant, creates one payment request
// through the API, then load-tests its pay page with a keep-alive node:http generator (in a worker
// thread, so it has its own core) and does the same against a bare node:http server that answers
// with the same bytes: the floor for this machine. Then it gzips (-9) every JS and CSS file the page
// loads. Figures only, no assertions; exits 1 on a non-2xx answer, a socket error or a failed step.
// Flags: --duration <s> (10), --concurrency <n> (32), --warmup <s> (2), --no-gzip (skip the gzip pass).
import path from "node:path";
import { compareWithBare, fetchPageAndServeBare, kb, request, runPageBench, startDemoServer } from "./lib/load-test.js";
import { assetsLoadedBy, endsWith, htmlSizes, measureAsset, printAssetSizes, sumOf } from "./lib/page-assets.js";

/** `tmp` holds the SQLite file and the stored page body. */
async function measurePayPage(flags, tmp) {
  // 1. The production server on an empty database, seeded with the demo merchant.
  const { appPort, base } = await startDemoServer(tmp, { worker: "off" });

  // 2. One payment request through the API.
  const json = { "Content-Type": "application/json", Accept: "application/json" };
  const signIn = await request(`${base}/api/v1/user/token/`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ username: "admin", password: "Demo@2026!" }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${signIn.body}`);
  const { access } = JSON.parse(signIn.body);
  const order = {
    amount: "12.500",
    currency_code: "KWD",
    pg_codes: ["knet-sandbox", "mpgs-sandbox", "cod"],
    description: "Benchmark order",
  };
  const created = await request(`${base}/api/v1/plugins/payment_request/transaction`, {
    method: "POST",
    headers: { ...json, Authorization: `Bearer ${access}` },
    body: JSON.stringify(order),
  });
  if (created.status !== 201) throw new Error(`payment request answered ${created.status}: ${created.body}`);
  const checkout = new URL(JSON.parse(created.body).checkout_url);
  const urlPath = checkout.pathname + checkout.search;

  // 3. The pay page once: its bytes for the bare server, its assets for the size report.
  const { page, html, bare } = await fetchPageAndServeBare({
    base,
    urlPath,
    name: "pay page",
    tmp,
    fileName: "pay.html",
  });

  // 4. The JS and CSS the page loads, fetched now (before a concurrent rebuild can replace them). The
  //    inline route manifest also names other routes' chunks (lazy route discovery): those are not
  //    loaded by this page, so they are listed apart and not counted.
  const failures = [];
  const loaded = assetsLoadedBy(html);
  const assets = [];
  for (const url of loaded)
    if (endsWith(url, base, ".js", ".css")) assets.push(await measureAsset(base, url, failures));
  const unloaded = [];
  for (const url of new Set(html.match(/\/assets\/[\w.-]+\.js\b/g)))
    if (!loaded.has(url)) unloaded.push(await measureAsset(base, url, failures));

  // 5. Load: the app, then the bare server, per encoding.
  console.log(`Pay page ${urlPath}: ${htmlSizes(page.body)}`);
  await compareWithBare({ appPort, barePort: bare.port, urlPath, flags, failures, targetRps: 1000 });

  // 6. Sizes.
  printAssetSizes(assets, base);
  const jsTotal = sumOf(
    assets.filter((f) => endsWith(f.url, base, ".js")),
    "gz",
  );
  console.log(`Target: at most 120 KB of gzipped JS: ${kb(jsTotal)} KB, ${jsTotal <= 120 * 1024 ? "met" : "not met"}`);
  if (unloaded.length) {
    const names = unloaded.map((f) => path.basename(f.url)).join(", ");
    console.log(
      `(Named only in the inline route manifest, not loaded: ${unloaded.length} files, ${kb(sumOf(unloaded, "gz"))} KB gzipped: ${names})`,
    );
  }
  if (failures.length) throw new Error(`Failures:\n  ${failures.join("\n  ")}`);
}

await runPageBench("pay", measurePayPage);
