// `npm run bench:catalogue`: how fast the production server renders the catalogue's public product
// list, beside a bare node:http server answering the same bytes in the same run (the floor for this
// machine). Boots `node server.js` on a fresh SQLite file with the demo merchant and its worker on
// (the demo shop is made by the section's demo job, `catalogue_demo_shop`; WELCOME10 is its
// discount), adds products until the shop has about 40, then load-tests
// `/en/catalogue/product-list?merchant=<id>` with keep-alive node:http generators in a worker thread.
// The list is plain HTML: it must load no JavaScript file. Exits 1 on a non-2xx answer, a socket
// error, a failed step or a JavaScript file loaded.
//
// The run is a list of parts (PARTS below), each given the running server: a part measuring
// another catalogue page or job is one more function in that list. Then, with that server stopped,
// the bulk section's bench (scripts/bench-bulk.js) times a 10,000-row bulk's validation and creation
// on SQLite, and on Postgres when TEST_POSTGRES_URL is set.
// Flags: --duration <s> (10), --concurrency <n> (32), --warmup <s> (2), --no-gzip (skip the gzip pass).
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { benchBulk } from "./bench-bulk.js";
import { waitForRow } from "./lib/demo-rows.js";
import {
  compareWithBare,
  fetchPageAndServeBare,
  kb,
  runPageBench,
  startDemoServer,
  stopChild,
} from "./lib/load-test.js";
import { assetsLoadedBy, endsWith, htmlSizes, measureAsset, sumOf } from "./lib/page-assets.js";

const self = fileURLToPath(import.meta.url);

/** The demo merchant's id once its demo job has made the shop (WELCOME10 is its discount). */
async function waitForDemoShop(file, app) {
  const row = await waitForRow(
    file,
    app,
    "select merchant_id from catalogue_discounts where code_lc = 'welcome10' limit 1",
    "the demo shop (job catalogue_demo_shop)",
  );
  return row.merchant_id;
}

/** More products for the demo shop, up to `total`, as the merchant's pages would write them (some limited, some discounted). */
function addProducts(file, merchantId, total) {
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  try {
    const { count } = db
      .prepare("select count(*) as count from catalogue_products where merchant_id = ?")
      .get(merchantId);
    const insert = db.prepare(
      "insert into catalogue_products (merchant_id, slug, sku, name_en, name_ar, description_en, description_ar, price, discounted_price, inventory, is_active, position, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
    );
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let index = count + 1; index <= total; index++) {
        const price = 1500 + index * 250;
        insert.run(
          merchantId,
          `bench-gift-${index}`,
          `BN-${index}`,
          `Gift box no. ${index}`,
          `صندوق هدية رقم ${index}`,
          "A gift box from the bench.",
          "صندوق هدية للقياس.",
          price,
          index % 4 === 0 ? price - 500 : null,
          index % 3 === 0 ? 20 : null,
          100 + index,
          at,
          at,
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** The product list: its bytes for the bare server, the JS and CSS it loads, then the load against both servers. */
async function productListPart({ tmp, base, appPort, merchantId, flags, failures }) {
  const urlPath = `/en/catalogue/product-list?merchant=${merchantId}`;
  const mustShow = { text: "Brass dallah coffee pot", what: "the demo shop" };
  const { page, html, bare } = await fetchPageAndServeBare({
    base,
    urlPath,
    name: "the product list",
    tmp,
    fileName: "product-list.html",
    mustShow,
  });

  const assets = [];
  for (const url of assetsLoadedBy(html))
    if (endsWith(url, base, ".js", ".css")) assets.push(await measureAsset(base, url, failures));

  const products = (html.match(/class="c-card shop-card"/g) ?? []).length;
  console.log(`Product list ${urlPath}: ${products} products on the page, ${htmlSizes(page.body)}`);
  const appIdentity = await compareWithBare({
    appPort,
    barePort: bare.port,
    urlPath,
    flags,
    failures,
    targetRps: 1000,
  });
  await stopChild(bare.child);
  // A missed target fails the run (exit 1), as a broken page does.
  if (!(appIdentity.rps >= 1000))
    failures.push(`the product list served ${appIdentity.rps.toFixed(0)} requests/s, under the 1,000 targeted`);

  const jsFiles = assets.filter((f) => endsWith(f.url, base, ".js"));
  const cssFiles = assets.filter((f) => endsWith(f.url, base, ".css"));
  console.log(`CSS loaded by the page: ${cssFiles.length} files, ${kb(sumOf(cssFiles, "gz"))} KB gzipped (-9)`);
  console.log(
    `Target: 0 KB of JavaScript (the list is plain HTML): ${kb(sumOf(jsFiles, "gz"))} KB in ${jsFiles.length} files, ${jsFiles.length === 0 ? "met" : "not met"}\n`,
  );
  if (jsFiles.length) failures.push(`the product list loads JavaScript: ${jsFiles.length} files`);
}

/**
 * What the run measures, in order; each part gets { tmp, base, appPort, merchantId, sqlitePath,
 * flags, failures }, `tmp` being the run's temp directory (the SQLite file, stored page bodies).
 */
export const PARTS = [productListPart];

async function measureCatalogue(flags, tmp) {
  const { app, appPort, base, sqlitePath } = await startDemoServer(tmp, { worker: "on" });
  const merchantId = await waitForDemoShop(sqlitePath, app);
  addProducts(sqlitePath, merchantId, 40);
  const failures = [];
  for (const part of PARTS) await part({ tmp, base, appPort, merchantId, sqlitePath, flags, failures });
  if (failures.length) throw new Error(`Failures:\n  ${failures.join("\n  ")}`);
}

if (process.argv[1] === self) {
  await runPageBench("catalogue", measureCatalogue, {
    afterwards: async () => {
      console.log("");
      const bulk = await benchBulk();
      if (!bulk.ok) process.exitCode = 1;
    },
  });
}
