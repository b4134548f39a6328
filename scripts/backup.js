// `npm run backup -- <file>` copies the SQLite database this installation uses (SQLITE_PATH, else
// ./data/platform.sqlite) to <file> with SQLite's online backup API, and the stored files
// (UPLOADS_DIR, REPORTS_DIR) to the folder <file>.files, while the app goes on serving and writing.
// A Postgres installation (DATABASE_URL) is backed up with pg_dump, and a bucket (S3_BUCKET) keeps
// its own copies: README, "Backups".
import path from "node:path";
import { loadApp } from "./lib/volume.js";

const target = process.argv[2];
if (!target) {
  console.error("usage: npm run backup -- <file>");
  process.exit(2);
}

const app = await loadApp();
try {
  const { env } = await app.load("/app/lib/env.server.ts");
  const { backup } = await app.load("/app/lib/backup.server.ts");
  const config = env();
  if (config.DATABASE_URL)
    throw new Error('DATABASE_URL is set: back Postgres up with pg_dump -Fc (README, "Backups")');
  const started = Date.now();
  const result = await backup(
    {
      sqlitePath: config.SQLITE_PATH,
      folders: config.S3_BUCKET ? undefined : { uploads: config.UPLOADS_DIR, reports: config.REPORTS_DIR },
    },
    target,
  );
  console.log(
    `Database ${config.SQLITE_PATH} → ${result.file}: ${result.pages} pages, ${result.bytes} bytes, integrity ok.`,
  );
  if (result.files)
    console.log(
      `Stored files (${config.UPLOADS_DIR}, ${config.REPORTS_DIR}) → ${result.files.folder}: ${result.files.count} files.`,
    );
  else
    console.log(
      `Stored files are in the bucket ${config.S3_BUCKET}: its versioning or replication keeps their copies.`,
    );
  // The key that seals the gateways' credentials stays out of the backup, as it stays out of the database (app/lib/sealed.server.ts).
  const key = config.CREDENTIALS_KEY
    ? "CREDENTIALS_KEY"
    : path.join(path.dirname(path.resolve(config.SQLITE_PATH)), "credentials.key");
  console.log(`Not copied: the sealing key (${key}). Keep one copy of it apart from the backups; a restore needs it.`);
  console.log(`Done in ${Date.now() - started} ms.`);
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await app.close();
}
