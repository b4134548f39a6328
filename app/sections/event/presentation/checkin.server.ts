import type { Language } from "~/lib/i18n";
import { formatDateTime, formatDay } from "~/lib/format";
import { translator } from "~/lib/i18n.server";
import type { ScannedPlace, ScanOutcome, SyncedScan } from "../domain/checkin.server";

/** "2026-12-20 18:00–22:00": the date and times a place is for. */
export function slotOf(place: Pick<ScannedPlace, "event_date" | "start_time" | "end_time">): string {
  return `${place.event_date} ${place.start_time}–${place.end_time}`;
}

/** A place as the API and the door show it, in the reader's language. */
export function serializePlace(place: ScannedPlace, lang: Language) {
  return {
    qr_number: place.qr_number,
    customer_first_name: place.customer_first_name,
    customer_last_name: place.customer_last_name,
    slot: slotOf(place),
    event_date: place.event_date,
    start_time: place.start_time,
    end_time: place.end_time,
    ticket: lang === "ar" ? place.ticket_ar : place.ticket_en,
  };
}

/** The message of a refused scan: already used (when, by whom), another date's (which), not of this event, not paid, unknown. */
export function scanRefusalMessage(outcome: Extract<ScanOutcome, { ok: false }>, lang: Language): string {
  const t = translator(lang);
  if (outcome.code === "other_date" && outcome.place)
    return t("checkin.reasons.other_date", { date: formatDay(outcome.place.event_date, lang) });
  if (outcome.code === "already_used" && outcome.scannedAt) {
    const when = formatDateTime(outcome.scannedAt, lang);
    return outcome.scannedBy
      ? t("checkin.reasons.already_used_by", { when, who: outcome.scannedBy })
      : t("checkin.reasons.already_used_at", { when });
  }
  return t(`checkin.reasons.${outcome.code}`);
}

/** A scan's answer as POST validate_qr_code gives it: 200 with the place, or 400 with the reason. */
export function scanAnswer(outcome: ScanOutcome, lang: Language): { status: number; body: Record<string, unknown> } {
  if (outcome.ok)
    return {
      status: 200,
      body: {
        ...serializePlace(outcome.place, lang),
        scanned_at: outcome.scannedAt,
        message: translator(lang)("checkin.granted"),
      },
    };
  if (outcome.code === "no_event")
    return { status: 400, body: { event_id: [translator(lang)("checkin.reasons.no_event")], code: "no_event" } };
  return {
    status: 400,
    body: {
      qrcode: [scanRefusalMessage(outcome, lang)],
      code: outcome.code,
      ...(outcome.scannedAt ? { scanned_at: outcome.scannedAt, scanned_by: outcome.scannedBy ?? null } : {}),
      ...(outcome.place ? { place: serializePlace(outcome.place, lang) } : {}),
    },
  };
}

/** An offline scan's answer after sync, with a message staff read in their language. */
export function serializeSyncedScan(result: SyncedScan, lang: Language) {
  const t = translator(lang);
  const place = result.place ? serializePlace(result.place, lang) : null;
  if (result.status === "admitted") return { ...result, place, message: t("checkin.granted") };
  if (result.status === "conflict") {
    const message = t("checkin.sync.admitted_twice", {
      first: result.first_scanned_at ? formatDateTime(result.first_scanned_at, lang) : "—",
      second: formatDateTime(result.scanned_at, lang),
    });
    return { ...result, place, message };
  }
  if (result.reason === "other_date" && result.place)
    return {
      ...result,
      place,
      message: t("checkin.reasons.other_date", { date: formatDay(result.place.event_date, lang) }),
    };
  return { ...result, place, message: t(`checkin.reasons.${result.reason}`) };
}
