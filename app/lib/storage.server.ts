import fs from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { env, type Env } from "./env.server";
import { checkStorageKey } from "./storage-keys";
import { createS3Storage, s3OptionsOf } from "./storage-s3.server";

/** A stored file before it is read: its size, and its bytes as a stream (opened when asked for). */
export type StoredFile = { size: number; stream: () => Readable };

/**
 * Where uploaded files and generated reports live: a local folder by default, or an
 * S3-compatible bucket when S3_BUCKET is set (docs/decisions/0034-object-storage.md). Keys are
 * slash-separated paths such as `brand/12/logo.png` or `reports/12/345/transactions.csv`.
 */
export interface FileStorage {
  put(key: string, data: Uint8Array): Promise<void>;
  /** The file's bytes, or null when there is none under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** A file to stream (a report may be hundreds of megabytes), or null when there is none. */
  open(key: string): Promise<StoredFile | null>;
  /**
   * Writes a file as `write` produces it, never holding it whole in memory. The file appears under
   * its key only once complete; if `write` throws, nothing does and the error is thrown again.
   */
  putStream(key: string, write: (output: Writable) => Promise<void>): Promise<{ bytes: number }>;
  /** Removes the file; a missing one is no error. */
  delete(key: string): Promise<void>;
  /** Removes what an unfinished putStream of the key left behind (a process that stopped half-way). */
  removeIncomplete(key: string): Promise<void>;
  /** The keys under a prefix that have an unfinished putStream left behind. */
  listIncomplete(prefix: string): Promise<string[]>;
}

/** The prefix of generated reports' keys; the local storage keeps them under REPORTS_DIR. */
export const REPORTS_PREFIX = "reports/";

const PARTIAL_SUFFIX = /\.\d+\.\d+\.part$/;

function resolveInside(root: string, relative: string) {
  const base = path.resolve(root);
  const target = path.resolve(base, relative);
  if (!target.startsWith(base + path.sep)) throw new Error("Storage key escapes its folder");
  return target;
}

/** Where the local storage keeps a key's file: reports under REPORTS_DIR, everything else under UPLOADS_DIR. */
export function localPathOf(key: string, config: Env = env()) {
  checkStorageKey(key);
  if (key.startsWith(REPORTS_PREFIX)) return resolveInside(config.REPORTS_DIR, key.slice(REPORTS_PREFIX.length));
  return resolveInside(config.UPLOADS_DIR, key);
}

/** The local folder a key prefix lives in ("reports/" is REPORTS_DIR itself). */
function localFolderOf(prefix: string, config: Env) {
  const trimmed = prefix.replace(/\/+$/, "");
  if (`${trimmed}/` === REPORTS_PREFIX) return path.resolve(config.REPORTS_DIR);
  return trimmed === "" ? path.resolve(config.UPLOADS_DIR) : localPathOf(trimmed, config);
}

/** A partial file is written beside its final name, named after the writing process, and renamed when complete. */
async function removePartialFiles(target: string) {
  const folder = path.dirname(target);
  const prefix = `${path.basename(target)}.`;
  const names = await fs.promises.readdir(folder).catch(() => [] as string[]);
  const partial = names.filter((name) => name.startsWith(prefix) && PARTIAL_SUFFIX.test(name));
  await Promise.all(partial.map((name) => fs.promises.rm(path.join(folder, name), { force: true })));
}

export const localStorage: FileStorage = {
  async put(key, data) {
    const target = localPathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, data);
  },
  async get(key) {
    try {
      return new Uint8Array(await fs.promises.readFile(localPathOf(key)));
    } catch {
      return null;
    }
  },
  async open(key) {
    const target = localPathOf(key);
    const stat = await fs.promises.stat(target).catch(() => null);
    if (!stat?.isFile()) return null;
    return { size: stat.size, stream: () => fs.createReadStream(target) };
  },
  async putStream(key, write) {
    const target = localPathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.${Date.now()}.part`;
    const output = fs.createWriteStream(partial);
    // Thrown by the next write or wait (output.errored); an unheard "error" event would end the process.
    output.on("error", () => {});
    try {
      await write(output);
      output.end();
      await finished(output);
      await fs.promises.rename(partial, target);
      return { bytes: (await fs.promises.stat(target)).size };
    } catch (error) {
      output.destroy();
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
  },
  async delete(key) {
    await fs.promises.rm(localPathOf(key), { force: true });
  },
  async removeIncomplete(key) {
    await removePartialFiles(localPathOf(key));
  },
  async listIncomplete(prefix) {
    const config = env();
    const folder = localFolderOf(prefix, config);
    const entries = await fs.promises.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    const keyPrefix = prefix.replace(/\/+$/, "");
    const keys = entries
      .filter((entry) => entry.isFile() && PARTIAL_SUFFIX.test(entry.name))
      .map((entry) => {
        const relative = path.relative(folder, path.join(entry.parentPath, entry.name.replace(PARTIAL_SUFFIX, "")));
        return [keyPrefix, ...relative.split(path.sep)].filter(Boolean).join("/");
      });
    return [...new Set(keys)];
  },
};

/**
 * Readiness: writes a small file where uploads go and one where reports go (two folders, or one
 * bucket), and removes them; throws when either cannot be written.
 */
export async function probeStorage(): Promise<void> {
  const store = storage();
  for (const key of [`readiness-${process.pid}`, `${REPORTS_PREFIX}readiness-${process.pid}`]) {
    await store.put(key, new Uint8Array([1]));
    await store.delete(key);
  }
}

let s3: { config: Env; storage: FileStorage } | undefined;

/** The configured storage: the bucket when S3_BUCKET is set, otherwise the local folders. */
export function storage(): FileStorage {
  const config = env();
  const options = s3OptionsOf(config);
  if (!options) return localStorage;
  // A changed environment (tests) gets a client of its own.
  if (s3?.config !== config) s3 = { config, storage: createS3Storage(options) };
  return s3.storage;
}
