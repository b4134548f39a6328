import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import {
  COLORS,
  LINE_HEIGHT,
  PAGE,
  drawHeader,
  drawLine,
  openPdf,
  rasterLogo,
  typesetText,
  type Line,
  type Style,
} from "~/presentation/pdf-typesetting.server";
import type { Collector } from "../domain/collectors.server";
import { collectorUrl } from "../domain/collectors.server";

/** The QR code's side on paper: about 11 cm, read from a phone across a shop counter. */
const QR_SIZE = 320;

/**
 * A collector's poster for a shop counter, an A4 page in one language: the unit's header (its name,
 * logo and colour), the collector's title and description, a large QR code of its link, and the
 * link written out for whoever cannot scan.
 */
export async function renderCollectorPoster(db: DB, collector: Collector, lang: Language, baseUrl: string) {
  const t = translator(lang);
  const link = collectorUrl(baseUrl, lang, collector.public_id);
  const unit = await loadUnitHeader(db, collector, lang);
  const title = lang === "ar" ? collector.title_ar : collector.title_en;
  const description = lang === "ar" ? collector.description_ar : collector.description_en;
  const { doc, fonts, finished } = openPdf({
    lang,
    title: `${t("collectors.poster.pdf_title")} — ${title}`,
    author: unit?.title,
  });
  const direction = lang === "ar" ? "rtl" : "ltr";
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const typeset = (text: string, style: Style, ownDirection = false) =>
    typesetText(doc, fonts, text, style, width, direction, ownDirection);
  const centered = (line: Line, style: Style, top: number) =>
    drawLine(doc, line, style, left + (width - line.width) / 2, top + style.size * 1.15);

  let y = drawHeader(
    doc,
    {
      lang,
      merchant: unit?.title ?? null,
      logo: unit ? await rasterLogo(unit.logoUrl) : null,
      headerColor: unit?.headerColor ?? "#ffffff",
    },
    (text, style, maxWidth) => typesetText(doc, fonts, text, style, maxWidth, direction, false),
  );
  const heading: Style = { size: 28, weight: "bold", color: COLORS.text };
  const body: Style = { size: 12, weight: "regular", color: COLORS.muted };
  const call: Style = { size: 16, weight: "bold", color: COLORS.text };
  const small: Style = { size: 10, weight: "regular", color: COLORS.muted };
  const linkStyle: Style = { size: 11, weight: "bold", color: COLORS.text };

  // The merchant's own words read in their own direction.
  for (const line of typeset(title, heading, true).slice(0, 3)) {
    centered(line, heading, y);
    y += heading.size * 1.3;
  }
  y += 4;
  for (const line of typeset(description, body, true).slice(0, 4)) {
    centered(line, body, y);
    y += body.size * LINE_HEIGHT;
  }
  y += 14;
  for (const line of typeset(t("collectors.poster.scan"), call)) {
    centered(line, call, y);
    y += call.size * 1.4;
  }
  y += 6;
  const qr = await QRCode.toBuffer(link, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 12 });
  doc.image(qr, left + (width - QR_SIZE) / 2, y, { width: QR_SIZE, height: QR_SIZE });
  // Opened on a screen, the code is also a link.
  doc.link(left + (width - QR_SIZE) / 2, y, QR_SIZE, QR_SIZE, link);
  y += QR_SIZE + 10;
  for (const line of typeset(t("collectors.poster.or_open"), small)) {
    centered(line, small, y);
    y += small.size * LINE_HEIGHT;
  }
  // The link is Latin letters and digits: it reads left to right on every poster.
  for (const line of typesetText(doc, fonts, link, linkStyle, width, "ltr", false)) {
    centered(line, linkStyle, y);
    y += linkStyle.size * LINE_HEIGHT;
  }
  const footer: Style = { size: 9, weight: "regular", color: COLORS.muted };
  typeset(t("collectors.poster.footer"), footer).forEach((line, row) =>
    centered(line, footer, PAGE.height - PAGE.margin + row * footer.size * LINE_HEIGHT - footer.size * 1.15),
  );
  doc.end();
  return { fileName: `collector-${collector.id}-${lang}.pdf`, pdf: await finished, link };
}
