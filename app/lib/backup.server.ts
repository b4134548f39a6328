import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

export type BackupSource = {
  /** The live SQLite database; the app may be writing to it meanwhile. */
  sqlitePath: string;
  /** The local storage's folders (UPLOADS_DIR, REPORTS_DIR); none when the files are in a bucket. */
  folders?: { uploads: string; reports: string };
};

export type BackupResult = {
  file: string;
  pages: number;
  bytes: number;
  /** Where the stored files went (`<file>.files/uploads` and `.../reports`), and how many. */
  files?: { folder: string; count: number };
};

/** A file that putStream is still writing: left out, its complete version appears under another name. */
const PARTIAL = /\.\d+\.\d+\.part$/;

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API, then of the stored
 * files beside it (decision 0040). The pages are copied in one step, under one read transaction: in
 * WAL mode writers go on meanwhile, and the copy is the database as of that step's start, which a
 * copy made in small steps would have to restart after every write. The copy is written under a
 * temporary name and checked (integrity_check) before it takes its name, so that a file under the
 * name is always a whole, sound backup.
 *
 * Files are copied after the database: a file the copy's rows name was written before its row, so it
 * is there; a file written later is copied too, unnamed by any row and harmless.
 */
export async function backup(source: BackupSource, target: string): Promise<BackupResult> {
  const file = path.resolve(target);
  if (!fs.existsSync(source.sqlitePath)) throw new Error(`No database at ${source.sqlitePath}`);
  if (path.resolve(source.sqlitePath) === file) throw new Error("The backup cannot replace the database it copies");
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  const live = new SQLite(source.sqlitePath, { fileMustExist: true });
  let pages = 0;
  try {
    live.pragma("busy_timeout = 5000");
    // The first step only opens the backup; the value returned after it makes the next step take every page.
    const done = await live.backup(partial, { progress: () => 0x7fffffff });
    pages = done.totalPages;
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    live.close();
  }
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    // The copy keeps the source's WAL mode; as a single file at rest it needs no log beside it.
    copy.pragma("journal_mode = DELETE");
    const check = copy.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`The copy failed its integrity check: ${String(check)}`);
  } catch (error) {
    copy.close();
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  copy.close();
  await fs.promises.rename(partial, file);
  const result: BackupResult = { file, pages, bytes: (await fs.promises.stat(file)).size };
  if (source.folders) result.files = await copyFolders(source.folders, `${file}.files`);
  return result;
}

async function copyFolders(folders: { uploads: string; reports: string }, destination: string) {
  const partial = `${destination}.${process.pid}.partial`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  let count = 0;
  for (const [name, folder] of Object.entries(folders)) {
    const into = path.join(partial, name);
    await fs.promises.mkdir(into, { recursive: true });
    if (!fs.existsSync(folder)) continue;
    await fs.promises.cp(folder, into, {
      recursive: true,
      filter: async (from) => {
        if (PARTIAL.test(from)) return false;
        if ((await fs.promises.stat(from)).isFile()) count++;
        return true;
      },
    });
  }
  await fs.promises.rm(destination, { recursive: true, force: true });
  await fs.promises.rename(partial, destination);
  return { folder: destination, count };
}
