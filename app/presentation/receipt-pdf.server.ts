import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { findAttempt } from "~/domain/payments/attempts.server";
import { formatDateTime } from "~/lib/format";
import { formatAmount } from "~/lib/money";
import { isMoneyParam, word } from "~/lib/outcome";
import { resultRows } from "./result-rows.server";
import type { MailRow } from "~/domain/messaging/mail-templates.server";
import { amountRows, customerName, paymentMethodName } from "~/domain/messaging/payment-mail.server";
import { findPublicTransaction } from "~/domain/payments/pay-page.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
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
} from "./pdf-typesetting.server";

type ReceiptContent = {
  lang: Language;
  orderNo: number;
  /** Cash on delivery: nothing is paid yet, so the document is an order confirmation, not a receipt. */
  confirmation: boolean;
  merchant: string | null;
  logo: Buffer | null;
  headerColor: string;
  rows: [label: string, value: string][];
  description: string | null;
};

/**
 * The receipt of a paid attempt — or the confirmation of a cash-on-delivery order — as a PDF in the
 * customer's language, in the merchant's look; null for an unknown attempt or one that did not
 * succeed. Card numbers are never stored, so never shown.
 */
export async function renderReceiptPdf(db: DB, attemptId: string, lang: Language): Promise<Uint8Array | null> {
  return (await createReceipt(db, attemptId, lang))?.pdf ?? null;
}

/** The receipt with the name it is downloaded under. */
export async function createReceipt(db: DB, attemptId: string, lang: Language) {
  const content = await loadReceipt(db, attemptId, lang);
  if (!content) return null;
  const name = content.confirmation ? "order-confirmation" : "receipt";
  return { fileName: `${name}-${content.orderNo}.pdf`, pdf: await drawReceipt(content) };
}

/** Gateway references shown after the receipt's own rows, as on the result page (the track id is its Reference No). */
const REFERENCE_ROWS = new Set([
  "result.post_date",
  "result.transaction_id",
  "result.auth_code",
  "result.reference_id",
  "result.payment_id",
]);

function rowValue(value: MailRow[1], lang: Language) {
  if (typeof value === "string" || typeof value === "number") return String(value);
  return isMoneyParam(value) ? formatAmount(value.minor, value.currency, lang) : translator(lang)(value.word);
}

async function loadReceipt(db: DB, attemptId: string, lang: Language): Promise<ReceiptContent | null> {
  const attempt = await findAttempt(db, attemptId);
  if (!attempt || (attempt.state !== "success" && attempt.state !== "cod")) return null;
  const transaction = await findPublicTransaction(db, attempt.transaction_id);
  if (!transaction) return null;
  const [unit, method] = await Promise.all([
    loadUnitHeader(db, transaction, lang),
    paymentMethodName(db, attempt.merchant_id, attempt.gateway_code, lang, attempt.card_masked),
  ]);
  const t = translator(lang);
  const name = customerName(transaction);
  const rows: MailRow[] = [
    ["mail.labels.order_no", transaction.order_no],
    ...(name ? [["mail.labels.customer", name] as MailRow] : []),
    ...amountRows(attempt),
    ["mail.labels.method", method],
    // Cash on delivery is already said by the method.
    ...(attempt.state === "cod" ? [] : [["result.status", word(`result.states.${attempt.state}`)] as MailRow]),
    ["mail.labels.reference", attempt.track_id],
    ...(attempt.completed_at ? [["mail.labels.date", formatDateTime(attempt.completed_at, lang)] as MailRow] : []),
    ...resultRows(attempt, transaction.order_no, undefined, lang).filter(([label]) => REFERENCE_ROWS.has(label)),
  ];
  return {
    lang,
    orderNo: transaction.order_no,
    confirmation: attempt.state === "cod",
    merchant: unit?.title ?? null,
    logo: unit ? await rasterLogo(unit.logoUrl) : null,
    headerColor: unit?.headerColor ?? "#ffffff",
    rows: rows.map(([label, value]) => [t(label), rowValue(value, lang)]),
    description: transaction.description,
  };
}

function drawReceipt(content: ReceiptContent): Promise<Uint8Array> {
  const t = translator(content.lang);
  const rtl = content.lang === "ar";
  const direction = rtl ? "rtl" : "ltr";
  const title = t(content.confirmation ? "receipt.cod_title" : "receipt.title");
  const { doc, fonts, finished } = openPdf({
    lang: content.lang,
    title: `${title} ${content.orderNo}`,
    author: content.merchant,
  });

  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const bottom = PAGE.height - PAGE.margin - 24;
  let y = PAGE.margin;

  const typeset = (text: string, style: Style, maxWidth: number, ownDirection = false) =>
    typesetText(doc, fonts, text, style, maxWidth, direction, ownDirection);
  const draw = (line: Line, style: Style, x: number, top: number, columnWidth: number) =>
    drawLine(doc, line, style, line.rightToLeft ? x + columnWidth - line.width : x, top + style.size * 1.15);
  const makeRoom = (height: number) => {
    if (y + height <= bottom) return;
    doc.addPage();
    y = PAGE.margin;
  };
  const paragraph = (text: string, style: Style, ownDirection = false) => {
    for (const line of typeset(text, style, width, ownDirection)) {
      makeRoom(style.size * LINE_HEIGHT);
      draw(line, style, left, y, width);
      y += style.size * LINE_HEIGHT;
    }
  };
  const rule = (thickness: number, color: string) => {
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(thickness)
      .strokeColor(color)
      .stroke();
  };

  y = drawHeader(doc, content, (text, style, maxWidth) => typeset(text, style, maxWidth));
  paragraph(title, { size: 24, weight: "bold", color: COLORS.text });
  if (content.confirmation) paragraph(t("receipt.cod_note"), { size: 10.5, weight: "regular", color: COLORS.muted });
  y += 6;
  rule(1.5, COLORS.text);

  const label: Style = { size: 10.5, weight: "regular", color: COLORS.muted };
  const value: Style = { size: 10.5, weight: "bold", color: COLORS.text };
  const labelWidth = 170;
  const gap = 16;
  const valueWidth = width - labelWidth - gap;
  const padding = 7;
  for (const [name, text] of content.rows) {
    const labelLines = typeset(name, label, labelWidth);
    const valueLines = typeset(text, value, valueWidth);
    const height = Math.max(labelLines.length, valueLines.length) * value.size * LINE_HEIGHT + 2 * padding;
    makeRoom(height);
    const labelX = rtl ? left + width - labelWidth : left;
    const valueX = rtl ? left : left + labelWidth + gap;
    labelLines.forEach((line, index) =>
      draw(line, label, labelX, y + padding + index * label.size * LINE_HEIGHT, labelWidth),
    );
    valueLines.forEach((line, index) =>
      draw(line, value, valueX, y + padding + index * value.size * LINE_HEIGHT, valueWidth),
    );
    y += height;
    rule(0.75, COLORS.rule);
  }

  if (content.description) {
    y += 20;
    makeRoom(40);
    paragraph(t("pay.order_description"), { size: 12, weight: "bold", color: COLORS.text });
    y += 2;
    // The merchant's own words read in their own direction, like dir="auto".
    paragraph(content.description, { size: 10.5, weight: "regular", color: COLORS.text }, true);
  }

  const footer: Style = { size: 8.5, weight: "regular", color: COLORS.muted };
  const footerLines = typeset(t(content.confirmation ? "receipt.cod_footer" : "result.receipt_footer"), footer, width);
  const pages = doc.bufferedPageRange();
  for (let page = pages.start; page < pages.start + pages.count; page++) {
    doc.switchToPage(page);
    footerLines.forEach((line, index) => {
      const top = PAGE.height - PAGE.margin + index * footer.size * LINE_HEIGHT;
      drawLine(doc, line, footer, left + (width - line.width) / 2, top + footer.size * 1.15);
    });
  }
  doc.end();
  return finished;
}
