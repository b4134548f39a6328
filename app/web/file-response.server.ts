import type fs from "node:fs";
import { Readable } from "node:stream";

export type DownloadFile = { fileName: string; contentType: string; size: number; open: () => fs.ReadStream };

/** A stored file as an attachment, streamed from disk, never kept by shared caches. */
export function fileResponse(file: DownloadFile) {
  const safeName = file.fileName.replace(/[^\w.-]/g, "_");
  return new Response(Readable.toWeb(file.open()) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${safeName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
