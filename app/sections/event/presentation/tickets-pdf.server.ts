import type { DB } from "~/db/database.server";
import { translator } from "~/lib/i18n.server";
import type { Language } from "~/lib/i18n";
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
import { loadTicketsView, qrPng, type TicketsView } from "./tickets.server";

/** The QR code's side on paper: about 8 cm, read from a phone's screen at arm's length. */
const QR_SIZE = 230;

/**
 * A booking's tickets as a PDF: one page per paid place, in the booking's language and its unit's
 * look, each with the event, date, slot, ticket, customer, "place n of N", the place's QR code and
 * its number in large type (what staff type when the camera cannot read the code), and the
 * location. Undefined for a wrong id or uuid, or a booking with no paid place.
 */
export async function renderTicketsPdf(db: DB, bookingId: number, uuid: string, lang?: Language) {
  const view = await loadTicketsView(db, bookingId, uuid, lang);
  if (!view || view.places.length === 0) return undefined;
  return { fileName: `tickets-${view.bookingId}.pdf`, pdf: await drawTickets(view) };
}

/** The mail attachment `event_tickets` (ref "<bookingId>:<uuid>"), made when the mail is sent or read. */
export async function renderTicketsAttachment(db: DB, ref: string) {
  const [id, uuid] = ref.split(":");
  const rendered = await renderTicketsPdf(db, Number(id), uuid ?? "");
  return rendered ? { content: Buffer.from(rendered.pdf), contentType: "application/pdf" } : undefined;
}

async function drawTickets(view: TicketsView): Promise<Uint8Array> {
  const t = translator(view.lang);
  const rtl = view.lang === "ar";
  const direction = rtl ? "rtl" : "ltr";
  const { doc, fonts, finished } = openPdf({
    lang: view.lang,
    title: `${t("event_tickets.pdf_title")} ${view.bookingId} — ${view.event}`,
    author: view.unit?.title,
  });
  const header = {
    lang: view.lang,
    merchant: view.unit?.title ?? null,
    logo: view.unit ? await rasterLogo(view.unit.logoUrl) : null,
    headerColor: view.unit?.headerColor ?? "#ffffff",
  };
  const codes = await Promise.all(view.places.map((place) => qrPng(place.qrContent)));

  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const typeset = (text: string, style: Style, maxWidth: number, ownDirection = false) =>
    typesetText(doc, fonts, text, style, maxWidth, direction, ownDirection);
  const centered = (line: Line, style: Style, top: number) =>
    drawLine(doc, line, style, left + (width - line.width) / 2, top + style.size * 1.15);
  const aligned = (line: Line, style: Style, x: number, top: number, columnWidth: number) =>
    drawLine(doc, line, style, line.rightToLeft ? x + columnWidth - line.width : x, top + style.size * 1.15);

  const title: Style = { size: 20, weight: "bold", color: COLORS.text };
  const number: Style = { size: 34, weight: "bold", color: COLORS.text };
  const muted: Style = { size: 10, weight: "regular", color: COLORS.muted };
  const label: Style = { size: 10.5, weight: "regular", color: COLORS.muted };
  const value: Style = { size: 10.5, weight: "bold", color: COLORS.text };

  view.places.forEach((place, index) => {
    if (index > 0) doc.addPage();
    let y = drawHeader(doc, header, (text, style, maxWidth) => typeset(text, style, maxWidth)) - 8;
    // The merchant's own words read in their own direction.
    for (const line of typeset(view.event, title, width, true).slice(0, 2)) {
      centered(line, title, y);
      y += title.size * 1.35;
    }
    for (const line of typeset(t("event_tickets.place_of", { n: place.position, total: place.total }), muted, width)) {
      centered(line, muted, y);
      y += muted.size * LINE_HEIGHT;
    }
    y += 8;
    doc.image(codes[index], left + (width - QR_SIZE) / 2, y, { width: QR_SIZE, height: QR_SIZE });
    y += QR_SIZE + 6;
    // The number is Latin letters and digits: it reads left to right on every page.
    for (const line of typesetText(doc, fonts, place.number, number, width, "ltr", false)) {
      centered(line, number, y);
      y += number.size * 1.3;
    }
    for (const line of typeset(t("event_tickets.number_hint"), muted, width)) {
      centered(line, muted, y);
      y += muted.size * LINE_HEIGHT;
    }
    y += 14;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(1.5)
      .strokeColor(COLORS.text)
      .stroke();

    const rows: [string, string, boolean][] = [
      [t("event_tickets.date"), view.date, false],
      // Isolated left to right, as the tickets page shows it: the start time first in both languages.
      [t("event_tickets.time"), `\u2066${view.slot}\u2069`, false],
      [t("event_tickets.ticket"), view.ticket, true],
      ...(view.customer ? [[t("event_tickets.name"), view.customer, true] as [string, string, boolean]] : []),
      [t("event_tickets.booking_no"), String(view.bookingId), false],
      ...(view.location ? [[t("event_tickets.location"), view.location, true] as [string, string, boolean]] : []),
    ];
    const labelWidth = 150;
    const gap = 16;
    const valueWidth = width - labelWidth - gap;
    const padding = 6;
    for (const [name, text, own] of rows) {
      const labelLines = typeset(name, label, labelWidth);
      const valueLines = typeset(text, value, valueWidth, own).slice(0, 3);
      const height = Math.max(labelLines.length, valueLines.length) * value.size * LINE_HEIGHT + 2 * padding;
      const labelX = rtl ? left + width - labelWidth : left;
      const valueX = rtl ? left : left + labelWidth + gap;
      labelLines.forEach((line, row) =>
        aligned(line, label, labelX, y + padding + row * label.size * LINE_HEIGHT, labelWidth),
      );
      valueLines.forEach((line, row) =>
        aligned(line, value, valueX, y + padding + row * value.size * LINE_HEIGHT, valueWidth),
      );
      y += height;
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(0.75)
        .strokeColor(COLORS.rule)
        .stroke();
    }

    const footer: Style = { size: 9, weight: "regular", color: COLORS.muted };
    typeset(t("event_tickets.show_at_entrance"), footer, width).forEach((line, row) => {
      centered(line, footer, PAGE.height - PAGE.margin + row * footer.size * LINE_HEIGHT - footer.size * 1.15);
    });
  });
  doc.end();
  return finished;
}
