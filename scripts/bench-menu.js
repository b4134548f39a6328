// `npm run bench:menu`: how fast the production server renders the food-ordering public menu, and
// what it ships. Boots `node server.js` on a fresh SQLite file with the demo merchant and its worker on
// (the demo restaurant is made by the section's demo job, `food_demo_menu`), waits until the job has
// written the menu (the voucher WELCOME10 is its last row), then load-tests `/en/new-menu?merchant=<id>`
// with a keep-alive node:http generator (in a worker thread, so it has its own core) and does the same
// against a bare node:http server that answers with the same bytes: the floor for this machine. Then
// it gzips (-9) every JS and CSS file the page loads — the menu is plain HTML, so it should load no
// JavaScript file at all. Exits 1 on a non-2xx answer, a socket error, a failed step or a JavaScript file loaded.
// Flags: --duration <s> (10), --concurrency <n> (32), --warmup <s> (2), --no-gzip (skip the gzip pass).
import { waitForRow } from "./lib/demo-rows.js";
import { compareWithBare, fetchPageAndServeBare, kb, runPageBench, startDemoServer } from "./lib/load-test.js";
import { assetsLoadedBy, endsWith, htmlSizes, measureAsset, printAssetSizes, sumOf } from "./lib/page-assets.js";

/** The demo merchant's id once its demo job has made the menu (the voucher WELCOME10 is its last row). */
async function waitForDemoMenu(file, app) {
  const row = await waitForRow(
    file,
    app,
    "select merchant_id from food_vouchers where code_lc = 'welcome10' limit 1",
    "the demo menu (job food_demo_menu)",
  );
  return row.merchant_id;
}

/** `tmp` holds the SQLite file and the stored page body. */
async function measureMenuPage(flags, tmp) {
  // 1. The production server on an empty database, seeded with the demo merchant; its worker runs the demo jobs.
  const { app, appPort, base, sqlitePath } = await startDemoServer(tmp, { worker: "on" });
  const merchantId = await waitForDemoMenu(sqlitePath, app);
  const urlPath = `/en/new-menu?merchant=${merchantId}`;

  // 2. The menu page once: its bytes for the bare server, its assets for the size report.
  const mustShow = { text: "Machboos", what: "the demo menu" };
  const { page, html, bare } = await fetchPageAndServeBare({
    base,
    urlPath,
    name: "the menu page",
    tmp,
    fileName: "menu.html",
    mustShow,
  });

  // 3. The JS and CSS the page loads, and its inline scripts.
  const failures = [];
  const inlineScripts = [
    ...html.matchAll(/<script\b(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g),
  ]
    .map((match) => match[1])
    .filter((code) => code.trim() !== "");
  const assets = [];
  for (const url of assetsLoadedBy(html))
    if (endsWith(url, base, ".js", ".css")) assets.push(await measureAsset(base, url, failures));

  // 4. Load: the app, then the bare server, per encoding.
  console.log(`Menu page ${urlPath}: ${htmlSizes(page.body)}`);
  await compareWithBare({ appPort, barePort: bare.port, urlPath, flags, failures, targetRps: 1000 });

  // 5. Sizes.
  printAssetSizes(assets, base);
  const jsFiles = assets.filter((f) => endsWith(f.url, base, ".js"));
  const inlineBytes = inlineScripts.reduce((total, code) => total + Buffer.byteLength(code), 0);
  // The root writes Mantine's colour-scheme snippet inline on every page: counted apart, it loads nothing.
  console.log(`Inline scripts (not files; the colour-scheme snippet): ${inlineScripts.length}, ${kb(inlineBytes)} KB`);
  const jsTotal = sumOf(jsFiles, "gz");
  console.log(
    `Target: 0 KB of JavaScript (the menu is plain HTML): ${kb(jsTotal)} KB in ${jsFiles.length} files, ${jsFiles.length === 0 ? "met" : "not met"}`,
  );
  if (jsFiles.length)
    failures.push(`the menu page loads JavaScript: ${jsFiles.length} files, ${kb(jsTotal)} KB gzipped`);
  if (failures.length) throw new Error(`Failures:\n  ${failures.join("\n  ")}`);
}

await runPageBench("menu", measureMenuPage);
