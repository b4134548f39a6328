import { Readable } from "node:stream";

export type DownloadFile = { fileName: string; contentType: string; size: number; open: () => Readable };

/**
 * The Content-Disposition of a download: the name as plain ASCII, and again as RFC 5987
 * `filename*`, which browsers prefer when both are there (an Arabic name survives).
 */
export function attachmentDisposition(fileName: string) {
  const ascii = fileName.replace(/[^\w.-]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*!]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A stored file as an attachment, streamed from storage, never kept by shared caches. */
export function fileResponse(file: DownloadFile) {
  return new Response(Readable.toWeb(file.open()) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
