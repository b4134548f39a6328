// `npm run seed:volume -- --transactions 1000000`: fills a merchant (the demo merchant by default) with
// realistic transactions to try the transactions workspace on: every section, state, gateway, KWD and
// ~10 % USD, two years of dates with daytime peaks, customers with e-mails and Kuwaiti phones, payment
// attempts (track ids, payment ids, references) for the paid, authorized, refunded, voided, COD, failed
// and attempted ones, a few deleted. Runs the app's migrations first and, on an empty database, its demo
// seed; order numbers continue after the merchant's last. Then rebuilds the merchant's
// `transaction_totals` from the rows and runs ANALYZE. The same --seed on the same database state gives
// the same rows (dates are relative to now).
// Flags: --transactions <n> (100000), --database-url <postgres://…> | --sqlite-path <file> (default: as
// the app: DATABASE_URL, else SQLITE_PATH, else ./data/platform.sqlite), --merchant <id|name> (default
// "Demo Store", seeded when the database has no merchant), --seed <text> (1).
import { parseArgs } from "node:util";
import { loadApp, resolveTarget, seedVolume } from "./lib/volume.js";

const { values } = parseArgs({
  options: {
    transactions: { type: "string", default: "100000" },
    "database-url": { type: "string" },
    "sqlite-path": { type: "string" },
    merchant: { type: "string" },
    seed: { type: "string", default: "1" },
  },
});
const transactions = Number(values.transactions);
if (!Number.isSafeInteger(transactions) || transactions < 1 || (values["database-url"] && values["sqlite-path"])) {
  console.error(
    "Usage: node scripts/seed-volume.js [--transactions n] [--database-url postgres://… | --sqlite-path file] [--merchant id|name] [--seed text]",
  );
  process.exit(2);
}
if (values["database-url"] && !/^postgres(ql)?:\/\//.test(values["database-url"])) {
  console.error("--database-url must be a postgres:// URL");
  process.exit(2);
}

const app = await loadApp();
try {
  const target = resolveTarget({ databaseUrl: values["database-url"], sqlitePath: values["sqlite-path"] });
  await seedVolume(app, target, { transactions, merchant: values.merchant, seed: values.seed });
} catch (error) {
  console.error(`\nseed:volume failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await app.close();
}
