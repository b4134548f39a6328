import type { DB } from "~/db/database.server";
import { randomToken } from "~/lib/crypto.server";
import { JPEG, PDF, PNG, sniff, WEBP } from "~/lib/file-types";
import { storage } from "~/lib/storage.server";

export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

const TYPES = [PDF, PNG, JPEG, WEBP] as const;

/** The type of stored bytes, sniffed again when served. */
export function contentTypeOf(bytes: Uint8Array) {
  return sniff(bytes, TYPES)?.type ?? "application/octet-stream";
}

/**
 * The embedding, override and isolate controls and the direction marks (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C): in a file name they only serve to disguise it, as
 * "invoice-\u202Efdp.exe" showing as "invoice-exe.pdf".
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

export function withoutBidiControls(text: string) {
  return text.replace(BIDI_CONTROLS, "");
}

/** The file name in a storage key, without direction controls (keys stored before they were removed may hold some). */
export function attachmentName(key: string) {
  return withoutBidiControls(key.split("/").pop() ?? "") || "attachment";
}

/**
 * Keeps an uploaded attachment after checking its size and, by its first bytes rather than its
 * name or the browser's word, that it is a PDF, PNG, JPEG or WebP. Answers the storage key.
 */
export async function storeAttachment(
  merchantId: number,
  file: { name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> },
): Promise<{ ok: true; key: string; originalName: string } | { ok: false; error: string }> {
  if (file.size === 0) return { ok: false, error: "attachment.errors.empty" };
  if (file.size > ATTACHMENT_MAX_BYTES) return { ok: false, error: "attachment.errors.too_large" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniff(bytes, TYPES);
  if (!kind) return { ok: false, error: "attachment.errors.type" };
  const originalName =
    withoutBidiControls(file.name)
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\\/\u0000-\u001f]/g, "_")
      .replace(/^\.+/, "")
      .slice(-120) || `attachment.${kind.extension}`;
  const key = `${merchantId}/${randomToken(18)}/${originalName}`;
  await storage().put(key, bytes);
  return { ok: true, key, originalName };
}

/** A key handed out by storeAttachment for this merchant (what the API's create accepts back). */
export function isMerchantAttachmentKey(merchantId: number, key: string) {
  return new RegExp(`^${merchantId}/[A-Za-z0-9_-]{24}/[^/]{1,120}$`).test(key) && !/\/\.{1,2}$/.test(key);
}

export async function readAttachment(key: string) {
  return storage().get(key);
}

/** A payment request's attachment (name and bytes) by its public id, or null when it has none. */
export async function readTransactionAttachment(db: DB, transactionId: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(transactionId)) return null;
  const row = await db
    .selectFrom("transactions")
    .select("attachment_path")
    .where("id", "=", transactionId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row?.attachment_path) return null;
  const bytes = await readAttachment(row.attachment_path);
  return bytes ? { name: attachmentName(row.attachment_path), bytes } : null;
}
