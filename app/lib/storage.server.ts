import fs from "node:fs/promises";
import path from "node:path";
import { env } from "./env.server";

/**
 * Where uploaded files live. The default keeps them in a local folder (UPLOADS_DIR); an
 * S3-compatible store plugs in behind the same two calls.
 */
export interface FileStorage {
  put(key: string, data: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
}

function resolveInside(root: string, key: string) {
  const target = path.resolve(root, key);
  if (!target.startsWith(path.resolve(root) + path.sep)) throw new Error("Storage key escapes the uploads folder");
  return target;
}

export const localStorage: FileStorage = {
  async put(key, data) {
    const target = resolveInside(env().UPLOADS_DIR, key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, data);
  },
  async get(key) {
    try {
      return new Uint8Array(await fs.readFile(resolveInside(env().UPLOADS_DIR, key)));
    } catch {
      return null;
    }
  },
};

export function storage(): FileStorage {
  return localStorage;
}
