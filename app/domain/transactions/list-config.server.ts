import type { DB } from "~/db/database.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import type { Language } from "~/lib/i18n";
import { BULK_ACTIONS, type RowActionName } from "~/domain/payments/transaction-actions.server";
import { DISPLAY_STATES } from "./display-state";

const CHOICES_LIMIT = 200;

/**
 * The choices of a list's filter panel (dashboard spec §3 list config filters_data): what the
 * merchant's rows can be filtered by, values as the list query takes them.
 */
export async function loadFilterChoices(
  db: DB,
  input: { merchantId: number; plugin: string; lang: Language; offersBulkFilter: boolean },
) {
  const [gateways, users, units, totals, bulks, productTypes] = await Promise.all([
    listMerchantGateways(db, input.merchantId),
    db
      .selectFrom("users")
      .select(["id", "username"])
      .where("merchant_id", "=", input.merchantId)
      .orderBy("username")
      .execute(),
    db
      .selectFrom("units")
      .select(["id", "title_en", "title_ar"])
      .where("merchant_id", "=", input.merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("transaction_totals")
      .select("currency_code")
      .distinct()
      .where("merchant_id", "=", input.merchantId)
      .where("plugin", "=", input.plugin)
      .execute(),
    // Only a section whose transactions belong to uploads offers the bulk filter (its declaration says so).
    !input.offersBulkFilter
      ? []
      : db
          .selectFrom("transactions")
          .select("bulk_id")
          .distinct()
          .where("merchant_id", "=", input.merchantId)
          .where("plugin", "=", input.plugin)
          .where("bulk_id", "is not", null)
          .orderBy("bulk_id", "desc")
          .limit(CHOICES_LIMIT)
          .execute(),
    db
      .selectFrom("transactions")
      .select("product_type")
      .distinct()
      .where("merchant_id", "=", input.merchantId)
      .where("plugin", "=", input.plugin)
      .where("product_type", "is not", null)
      .orderBy("product_type")
      .limit(CHOICES_LIMIT)
      .execute(),
  ]);
  const currencies = new Set(totals.map((row) => row.currency_code));
  for (const gateway of gateways)
    for (const code of gateway.currencies.split(",")) if (code.trim()) currencies.add(code.trim().toUpperCase());
  return {
    // The stored states and the display state "partially_refunded" (a filter of its own, decision 0019).
    states: DISPLAY_STATES,
    gateways: gateways.map((gateway) => ({
      code: gateway.code,
      name: input.lang === "ar" ? gateway.name_ar : gateway.name_en,
      name_en: gateway.name_en,
      name_ar: gateway.name_ar,
    })),
    currencies: [...currencies].sort(),
    created_by: users.map((user) => ({ id: user.id, username: user.username })),
    units: units.map((unit) => ({
      id: unit.id,
      title: input.lang === "ar" ? unit.title_ar : unit.title_en,
      title_en: unit.title_en,
      title_ar: unit.title_ar,
    })),
    bulks: bulks.map((row) => ({ id: row.bulk_id! })),
    product_types: productTypes.map((row) => row.product_type!),
  };
}

/** The merchant's installed transaction plugins (of `sections`), each with the units its requests can belong to. */
export async function loadPluginUnits(db: DB, merchantId: number, lang: Language, sections: readonly string[]) {
  const [installed, units] = await Promise.all([
    db.selectFrom("merchant_plugins").select("plugin").where("merchant_id", "=", merchantId).execute(),
    db
      .selectFrom("units")
      .select(["id", "title_en", "title_ar", "is_default"])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
  ]);
  const shaped = units.map((unit) => ({
    id: unit.id,
    title: lang === "ar" ? unit.title_ar : unit.title_en,
    is_default: Boolean(unit.is_default),
  }));
  return Object.fromEntries(
    installed.filter((row) => sections.includes(row.plugin)).map((row) => [row.plugin, { units: shaped }]),
  );
}

/** The Actions menu of a list: the bulk actions this user may take at all (each row still decides). */
export function bulkActionsFor(user: PermissionHolder, deleted: boolean): RowActionName[] {
  if (deleted) return can(user, "delete_paymenttransaction") ? ["restore"] : [];
  return BULK_ACTIONS.filter((action) => {
    if (action === "email" || action === "sms")
      return can(user, "change_paymenttransaction") || can(user, "add_paymenttransaction");
    if (action === "cancel") return can(user, "change_paymenttransaction");
    if (action === "delete") return can(user, "delete_paymenttransaction");
    return false;
  });
}
