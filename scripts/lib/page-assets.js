// What a server-rendered page makes the browser load, and how much of it: the bench scripts' size reports.
import zlib from "node:zlib";
import { kb, request } from "./load-test.js";

export const gzippedSize = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;

/** The page's HTML size line: `HTML <n> KB, <n> KB gzipped (-9)`. */
export const htmlSizes = (body) => `HTML ${kb(body.length)} KB, ${kb(gzippedSize(body))} KB gzipped (-9)`;

/** The URLs the page loads: <script src>, modulepreload and stylesheet links, and the inline module scripts' imports. */
export function assetsLoadedBy(html) {
  const loaded = new Set();
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) loaded.add(src);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const rel = tag.match(/\brel="([^"]+)"/)?.[1],
      href = tag.match(/\bhref="([^"]+)"/)?.[1];
    if (href && (rel === "modulepreload" || rel === "stylesheet")) loaded.add(href);
  }
  for (const [, src] of html.matchAll(/\bimport\s*(?:\(\s*)?(?:[\w*{}\s,$]+\bfrom\s*)?["'](\/[^"'\s]+)["']/g))
    loaded.add(src);
  return loaded;
}

/** Whether `url` (relative to `base`) names a file with one of these endings (".js", ".css"). */
export const endsWith = (url, base, ...endings) =>
  endings.some((ending) => new URL(url, base).pathname.endsWith(ending));

/** One asset fetched from `base`: { url, raw, gz } in bytes; a non-200 answer goes into `failures`. */
export async function measureAsset(base, url, failures) {
  const asset = await request(new URL(url, base), { headers: { "Accept-Encoding": "identity" } });
  if (asset.status !== 200) failures.push(`${url} answered ${asset.status}`);
  return { url, raw: asset.body.length, gz: gzippedSize(asset.body) };
}

export const sumOf = (files, key) => files.reduce((total, f) => total + f[key], 0);

/** Per kind (JavaScript, then CSS): each file loaded, largest gzipped first, and the total. */
export function printAssetSizes(assets, base) {
  for (const [ext, label] of [
    [".js", "JavaScript"],
    [".css", "CSS"],
  ]) {
    const files = assets.filter((f) => endsWith(f.url, base, ext)).sort((x, y) => y.gz - x.gz);
    console.log(`${label} loaded by the page (${files.length} files; KB gzipped -9, KB raw):`);
    for (const f of files) console.log(`${kb(f.gz).padStart(8)} ${kb(f.raw).padStart(8)}  ${f.url}`);
    console.log(`${kb(sumOf(files, "gz")).padStart(8)} ${kb(sumOf(files, "raw")).padStart(8)}  total ${label}\n`);
  }
}
