import { loadApp } from "./scripts/lib/volume.js";
const app = await loadApp();
const db = app.database.createDatabase({ sqlitePath: "/tmp/kp-bench/transactions-1000000.sqlite" });
let t = performance.now(), n = 0, i = 0;
for await (const batch of app.list.iterateTransactions(db, { merchantId: 1, deleted: false }, {}, 2000)) {
  n += batch.length; i++;
  if (i % 25 === 0) { console.log(n, (performance.now() - t).toFixed(0), "ms", (process.memoryUsage().rss/1048576).toFixed(0), "MB", (process.memoryUsage().heapUsed/1048576).toFixed(0)); t = performance.now(); }
  if (i >= 150) break;
}
await db.destroy(); await app.close();
