import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { nowIso } from "~/lib/clock.server";
import { DeliveryAddressSchema, DeliveryLocationSchema, type DeliveryAddress } from "./delivery-schema";
import { isKuwaitArea } from "./kuwait-areas";
import { findPublicTransaction } from "./pay-page.server";
import { PAYABLE_STATES } from "./states";

export type DeliveryState = {
  mode: "none" | "address" | "address_location";
  address: DeliveryAddress | null;
  location: { lat: number; lng: number } | null;
  confirmed: boolean;
};

export async function deliveryStateOf(db: DB, transactionId: string): Promise<DeliveryState> {
  const row = await db
    .selectFrom("transactions")
    .select(["delivery_mode", "delivery_address", "delivery_lat", "delivery_lng", "delivery_confirmed_at"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  return {
    mode: row.delivery_mode,
    address: row.delivery_address ? (JSON.parse(row.delivery_address) as DeliveryAddress) : null,
    location:
      row.delivery_lat !== null && row.delivery_lng !== null ? { lat: row.delivery_lat, lng: row.delivery_lng } : null,
    confirmed: row.delivery_confirmed_at !== null,
  };
}

/** Customer steps may change only an open request whose delivery details are still being given. */
async function openForDelivery(db: DB, transactionId: string) {
  const transaction = await findPublicTransaction(db, transactionId);
  if (!transaction || !PAYABLE_STATES.includes(transaction.state)) return null;
  const state = await deliveryStateOf(db, transactionId);
  return state.mode === "none" ? null : { transaction, state };
}

function issuesToErrors(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
  return errors;
}

/** Step 2: the address. In Kuwait the area must be one of the known areas (in either language). */
export async function saveDeliveryAddress(
  db: DB,
  transactionId: string,
  input: Record<string, unknown>,
  countryCode: string,
) {
  const open = await openForDelivery(db, transactionId);
  if (!open) return { ok: false as const, errors: { non_field_errors: ["pay.errors.not_payable"] } };
  const parsed = DeliveryAddressSchema.safeParse(input);
  if (!parsed.success) return { ok: false as const, errors: issuesToErrors(parsed.error.issues) };
  if (countryCode === "KW" && !isKuwaitArea(parsed.data.area))
    return { ok: false as const, errors: { area: ["delivery.errors.area"] } };
  await db
    .updateTable("transactions")
    .set({ delivery_address: JSON.stringify(parsed.data), delivery_confirmed_at: null })
    .where("id", "=", transactionId)
    .execute();
  return { ok: true as const, needsLocation: open.state.mode === "address_location" };
}

/** Step 3: the map pin, or none when the customer skips it. */
export async function saveDeliveryLocation(db: DB, transactionId: string, input: Record<string, unknown> | null) {
  const open = await openForDelivery(db, transactionId);
  if (!open) return { ok: false as const, errors: { non_field_errors: ["pay.errors.not_payable"] } };
  if (input === null) {
    await db
      .updateTable("transactions")
      .set({ delivery_lat: null, delivery_lng: null })
      .where("id", "=", transactionId)
      .execute();
    return { ok: true as const };
  }
  const parsed = DeliveryLocationSchema.safeParse(input);
  if (!parsed.success) return { ok: false as const, errors: issuesToErrors(parsed.error.issues) };
  await db
    .updateTable("transactions")
    .set({ delivery_lat: parsed.data.lat, delivery_lng: parsed.data.lng, delivery_confirmed_at: null })
    .where("id", "=", transactionId)
    .execute();
  return { ok: true as const };
}

/** Step 4: the customer confirms; the payment methods open only after this. */
export async function confirmDelivery(db: DB, transactionId: string) {
  const open = await openForDelivery(db, transactionId);
  if (!open || !open.state.address) return false;
  await db
    .updateTable("transactions")
    .set({ delivery_confirmed_at: nowIso() })
    .where("id", "=", transactionId)
    .execute();
  return true;
}

/** Which step the pay page shows, from the one asked for in the URL and what is already known. */
export function deliveryStepFor(
  state: DeliveryState,
  asked: string | null,
): "welcome" | "address" | "location" | "confirm" | null {
  if (state.mode === "none") return null;
  if (asked === "address" || asked === "welcome") return asked;
  if (asked === "location" && state.mode === "address_location" && state.address) return "location";
  if (state.confirmed) return null;
  if (asked === "confirm" && state.address) return "confirm";
  return state.address ? "confirm" : "welcome";
}
