import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import bidiFactory, { type EmbeddingLevels } from "bidi-js";
import PDFDocument from "pdfkit";
import type { Language } from "~/lib/i18n";

/**
 * What the platform's PDFs (receipts, event tickets) share: A4 pages in the Noto fonts of
 * app/assets/fonts, Arabic shaped and ordered right to left, and the merchant's header in its
 * unit's colour with its logo.
 */

/** The merchant's look across the top of a page: its name, its logo (PNG or JPEG) and its header colour. */
export type PdfHeader = { lang: Language; merchant: string | null; logo: Buffer | null; headerColor: string };

/** A PDFKit document in our fonts, and the bytes it will have once ended. */
export function openPdf(options: { lang: Language; title: string; author?: string | null }) {
  const fonts = fontPaths();
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    // Our own font from the start, so PDFKit does not load Helvetica for nothing.
    font: fonts.regular.latin,
    bufferPages: true,
    lang: options.lang,
    displayTitle: true,
    info: { Title: options.title, Author: options.author ?? undefined },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
  return { doc, fonts, finished };
}

/**
 * The unit's logo when PDFKit can draw it: a PNG or JPEG among the platform's own public files.
 * Remote addresses are not fetched while a customer waits for the file, and SVG is not a format
 * PDFKit draws; then the header shows the merchant's name alone.
 */
export async function rasterLogo(url: string | null): Promise<Buffer | null> {
  if (!url || !/^\/[\w./-]+\.(png|jpe?g)$/i.test(url) || url.includes("..")) return null;
  for (const folder of ["public", "build/client"]) {
    const file = path.resolve(process.cwd(), folder, `.${url}`);
    if (!file.startsWith(path.resolve(process.cwd(), folder) + path.sep)) return null;
    try {
      return await fs.promises.readFile(file);
    } catch {
      // Not in this folder: try the next.
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Layout. PDFKit shapes a run with fontkit (Arabic letters join) but neither orders mixed
// right-to-left and left-to-right text nor lets us say which way a run reads, so each line is
// ordered here with the Unicode bidi algorithm and handed over as runs in one font and one
// direction, left to right (see runDirectionFix).

export type Weight = "regular" | "bold";
export type Style = { size: number; weight: Weight; color: string };
/** Text in one font, as PDFKit is to draw it, starting at the left. */
type Piece = { text: string; font: string; width: number };
export type Line = { pieces: Piece[]; width: number; rightToLeft: boolean };

export type Fonts = Record<Weight, { latin: string; arabic: string }>;

const FONT_FILES: Fonts = {
  regular: { latin: "NotoSans-Regular.ttf", arabic: "NotoSansArabic-Regular.ttf" },
  bold: { latin: "NotoSans-Bold.ttf", arabic: "NotoSansArabic-Bold.ttf" },
};

export const PAGE = { width: 595.28, height: 841.89, margin: 56 };
export const COLORS = { text: "#212529", muted: "#5c636a", rule: "#dee2e6" };
export const LINE_HEIGHT = 1.6;

const bidi = bidiFactory();
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ARABIC_LETTERS = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]/;
/** Signs the Arabic font has too: inside right-to-left text they stay in the Arabic run. */
const ARABIC_FONT_SIGNS = /[ !,.:\-\d\u00a0\u00ab\u00bb]/;
const SCRIPT_LETTER = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
const RTL_SCRIPTS = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** Given features, PDFKit lays a run out whole instead of word by word, so fontkit shapes and orders it as one. */
const WHOLE_RUN = { features: [] };

export function fontPaths(): Fonts {
  // Bundled into build/server/index.js, import.meta.url is the bundle: fall back to the app root.
  const url = new URL("../../assets/fonts/", import.meta.url);
  const local = url.protocol === "file:" ? fileURLToPath(url) : "";
  const folder = local && fs.existsSync(local) ? local : path.resolve(process.cwd(), "app/assets/fonts");
  const inFolder = ({ latin, arabic }: Fonts[Weight]) => ({
    latin: path.join(folder, latin),
    arabic: path.join(folder, arabic),
  });
  return { regular: inFolder(FONT_FILES.regular), bold: inFolder(FONT_FILES.bold) };
}

/** Black or white text on the header colour: the public header's rule (YIQ brightness 155 and above takes black). */
export function textOn(color: string) {
  const [r, g, b] = [1, 3, 5].map((offset) => parseInt(color.slice(offset, offset + 2), 16));
  return (r * 299 + g * 587 + b * 114) / 1000 >= 155 ? COLORS.text : "#ffffff";
}

/**
 * The merchant's header across the top of the first page, as on its pay page: its colour, its logo
 * at the reading start and its name beside it. Answers where the page's content starts.
 */
export function drawHeader(
  doc: PDFKit.PDFDocument,
  content: PdfHeader,
  typeset: (text: string, style: Style, maxWidth: number) => Line[],
) {
  const rtl = content.lang === "ar";
  const color = /^#[0-9a-f]{6}$/i.test(content.headerColor) ? content.headerColor : "#ffffff";
  const height = 92;
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  doc.rect(0, 0, PAGE.width, height).fill(color);
  if (color.toLowerCase() === "#ffffff")
    doc.moveTo(0, height).lineTo(PAGE.width, height).lineWidth(0.75).strokeColor(COLORS.rule).stroke();
  let logoWidth = 0;
  if (content.logo) {
    try {
      // openImage (in PDFKit, not in its types) gives the size, to set the name beside the logo.
      const image = (doc as unknown as { openImage(source: Buffer): { width: number; height: number } }).openImage(
        content.logo,
      );
      const scale = Math.min(140 / image.width, 52 / image.height);
      logoWidth = image.width * scale;
      doc.image(
        image as unknown as Buffer,
        rtl ? left + width - logoWidth : left,
        (height - image.height * scale) / 2,
        { width: logoWidth },
      );
    } catch {
      // A file PDFKit cannot read leaves the name alone in the header.
      logoWidth = 0;
    }
  }
  if (content.merchant) {
    const gap = logoWidth ? 14 : 0;
    const style: Style = { size: 16, weight: "bold", color: textOn(color) };
    const room = width - logoWidth - gap;
    const lines = typeset(content.merchant, style, room).slice(0, 2);
    const lineHeight = style.size * 1.3;
    let top = (height - lines.length * lineHeight) / 2;
    for (const line of lines) {
      const x = rtl ? left + room - line.width : left + logoWidth + gap;
      drawLine(doc, line, style, x, top + style.size * 1.05);
      top += lineHeight;
    }
  }
  return height + 28;
}

/**
 * The lines of a text wrapped to maxWidth, each ordered for display; a newline starts a paragraph.
 * With ownDirection, a paragraph reads in the direction of its first letter (the page's when it has none).
 */
export function typesetText(
  doc: PDFKit.PDFDocument,
  fonts: Fonts,
  text: string,
  style: Style,
  maxWidth: number,
  direction: "ltr" | "rtl",
  ownDirection: boolean,
): Line[] {
  const lines: Line[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const firstLetter = ownDirection ? /\p{L}/u.exec(paragraph)?.[0] : undefined;
    const rightToLeft = firstLetter ? RTL_SCRIPTS.test(firstLetter) : direction === "rtl";
    const levels = bidi.getEmbeddingLevels(paragraph, rightToLeft ? "rtl" : "ltr");
    const fontAt = (index: number) => fonts[style.weight][fontOf(paragraph[index], levels.levels[index] % 2 === 1)];
    const widthOf = (start: number, end: number) => {
      let width = 0;
      for (let from = start; from < end;) {
        let to = from + 1;
        while (to < end && fontAt(to) === fontAt(from)) to++;
        width += measure(doc, paragraph.slice(from, to).replace(BIDI_CONTROLS, ""), fontAt(from), style.size);
        from = to;
      }
      return width;
    };
    for (const [start, end] of breakLines(paragraph, widthOf, maxWidth)) {
      const pieces = visualPieces(doc, paragraph, levels, start, end, fontAt, style.size);
      lines.push({ pieces, width: pieces.reduce((sum, piece) => sum + piece.width, 0), rightToLeft });
    }
  }
  return lines;
}

function fontOf(char: string, rightToLeft: boolean): "latin" | "arabic" {
  if (ARABIC_LETTERS.test(char)) return "arabic";
  return rightToLeft && ARABIC_FONT_SIGNS.test(char) ? "arabic" : "latin";
}

function measure(doc: PDFKit.PDFDocument, text: string, font: string, size: number) {
  return doc.font(font).fontSize(size).widthOfString(text, WHOLE_RUN);
}

/** Greedy line breaks at spaces, as [start, end) of the paragraph; a word wider than a line is cut. */
function breakLines(paragraph: string, widthOf: (start: number, end: number) => number, maxWidth: number) {
  const lines: [number, number][] = [];
  let line: { start: number; end: number; width: number } | null = null;
  for (const match of paragraph.matchAll(/\S+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const wordWidth = widthOf(start, end);
    if (line) {
      const spaceWidth = widthOf(line.end, start);
      if (line.width + spaceWidth + wordWidth <= maxWidth) {
        line.end = end;
        line.width += spaceWidth + wordWidth;
        continue;
      }
      lines.push([line.start, line.end]);
    }
    line = { start, end, width: wordWidth };
    if (wordWidth <= maxWidth) continue;
    line = { start, end: start, width: 0 };
    for (const { index, segment } of graphemes.segment(paragraph.slice(start, end))) {
      const graphemeWidth = widthOf(start + index, start + index + segment.length);
      if (line.end > line.start && line.width + graphemeWidth > maxWidth) {
        lines.push([line.start, line.end]);
        line = { start: line.end, end: line.end, width: 0 };
      }
      line.end += segment.length;
      line.width += graphemeWidth;
    }
  }
  if (line) lines.push([line.start, line.end]);
  return lines.length ? lines : [[0, 0] as [number, number]];
}

/** One line of a paragraph in display order, cut into pieces of one font and one direction. */
function visualPieces(
  doc: PDFKit.PDFDocument,
  paragraph: string,
  levels: EmbeddingLevels,
  start: number,
  end: number,
  fontAt: (index: number) => string,
  size: number,
): Piece[] {
  if (end <= start) return [];
  const mirrored = bidi.getMirroredCharactersMap(paragraph, levels.levels, start, end - 1);
  const groups: { level: number; font: string; indices: number[] }[] = [];
  // The indices come for the whole paragraph, reordered within the line.
  for (const index of bidi.getReorderedIndices(paragraph, levels, start, end - 1).slice(start, end)) {
    if (BIDI_CONTROLS.test(paragraph[index])) continue;
    const level = levels.levels[index];
    const font = fontAt(index);
    const last = groups.at(-1);
    if (last && last.level === level && last.font === font) last.indices.push(index);
    else groups.push({ level, font, indices: [index] });
  }
  return groups.map(({ level, font, indices }) => {
    const logical = indices
      .sort((a, b) => a - b)
      .map((index) => mirrored.get(index) ?? paragraph[index])
      .join("");
    const text = runDirectionFix(logical, level % 2 === 1);
    return { text, font, width: measure(doc, text, font, size) };
  });
}

/**
 * fontkit shapes a run and lays it out right to left when its first letter is of a right-to-left
 * script (then it reverses the glyphs itself). A run whose bidi direction differs from that, like
 * Arabic-Indic digits read left to right or punctuation inside Arabic text, has nothing to join,
 * so it is handed over reversed.
 */
function runDirectionFix(logical: string, rightToLeft: boolean) {
  const letter = SCRIPT_LETTER.exec(logical)?.[0];
  const fontkitRightToLeft = letter !== undefined && RTL_SCRIPTS.test(letter);
  return fontkitRightToLeft === rightToLeft ? logical : [...logical].reverse().join("");
}

export function drawLine(doc: PDFKit.PDFDocument, line: Line, style: Style, x: number, baseline: number) {
  let left = x;
  for (const piece of line.pieces) {
    doc.font(piece.font).fontSize(style.size).fillColor(style.color);
    doc.text(piece.text, left, baseline, { ...WHOLE_RUN, lineBreak: false, baseline: "alphabetic" });
    left += piece.width;
  }
}
