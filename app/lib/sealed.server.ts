import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

const VERSION = "sealed:v1";
const keys = new Map<string, Buffer>();

/**
 * The 256-bit key that seals secrets at rest: CREDENTIALS_KEY from the environment, or, in the
 * embedded installation, a key file made once beside the SQLite file. Either way it is never in
 * the database, so a copy of the database alone reveals no credential. Lose it and the sealed
 * credentials must be entered again (the sandbox accounts are sealed again at start).
 */
function sealingKey(): Buffer {
  const configured = env().CREDENTIALS_KEY;
  const file = path.join(path.dirname(path.resolve(env().SQLITE_PATH)), "credentials.key");
  const source = configured ? `env:${configured}` : `file:${file}`;
  const known = keys.get(source);
  if (known) return known;
  if (configured) return remember(source, configured);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under another name, then linked into place: another process sees no key file or
    // a complete one, and of two processes starting at once, the first link wins for both.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(temporary, randomBytes(32).toString("hex"), { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  const material = fs.readFileSync(file, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(material))
    throw new Error(`${file} does not hold a key (64 hexadecimal digits): restore it, or set CREDENTIALS_KEY`);
  return remember(source, material);
}

function remember(source: string, material: string) {
  const key = createHash("sha256").update(material).digest();
  keys.set(source, key);
  return key;
}

/** AES-256-GCM: `sealed:v1:<iv>:<tag>:<ciphertext>`, base64url. */
export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [
    VERSION,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(":");
}

export function isSealed(value: string) {
  return value.startsWith(`${VERSION}:`);
}

/** The plain text of a sealed value; a value written before sealing existed is returned as it is. */
export function unseal(value: string): string {
  if (!isSealed(value)) return value;
  const [, , iv, tag, body] = value.split(":");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
