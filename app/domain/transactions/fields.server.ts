import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { toDecimalString } from "~/lib/money";
import { list, named, word } from "~/lib/outcome";
import type { TransactionRow } from "./list.server";

/**
 * The columns a list can show and an export can hold (dashboard spec §3 configured table field,
 * export config). Labels default to the translations; a merchant may rename and reorder them.
 */
export const BUILTIN_FIELDS = [
  "order_no",
  "created",
  "customer_email",
  "customer_phone",
  "customer_name",
  "amount",
  "paid_amount",
  "fee",
  "refunded_amount",
  "currency_code",
  "state",
  "gateway_name",
  "initiator",
  "unit",
  "description",
  "state_changed_at",
  "expiration_time",
  "product_type",
  "id",
] as const;

/** Export-only fields (dashboard spec §3 export config other_fields). */
export const OTHER_FIELDS = ["extra", "auth_code", "card_type", "ref_number"] as const;

export type FieldName = (typeof BUILTIN_FIELDS)[number] | (typeof OTHER_FIELDS)[number];

export const DEFAULT_ACTIVE_FIELDS: readonly FieldName[] = [
  "order_no",
  "created",
  "customer_email",
  "amount",
  "currency_code",
  "state",
  "gateway_name",
  "initiator",
];

export function isFieldName(name: string): name is FieldName {
  return (BUILTIN_FIELDS as readonly string[]).includes(name) || (OTHER_FIELDS as readonly string[]).includes(name);
}

/**
 * A column as the merchant set it: `label_en`/`label_ar` empty means the platform's own wording
 * (fields.<name>), filled in where it is shown. A section's own columns (`sectionFields`) follow
 * the built-in ones.
 */
export type TableField = { name: string; label_en: string; label_ar: string; is_active: boolean; order: number };

/** The section's columns in the merchant's order: saved choices first, then any field not configured yet. */
export async function loadTableFields(
  db: DB,
  merchantId: number,
  section: string,
  sectionFields: readonly string[] = [],
): Promise<TableField[]> {
  const known: readonly string[] = [...BUILTIN_FIELDS, ...sectionFields];
  const saved = await db
    .selectFrom("table_fields")
    .select(["name", "label_en", "label_ar", "is_active", "position"])
    .where("merchant_id", "=", merchantId)
    .where("section", "=", section)
    .orderBy("position")
    .execute();
  const fields: TableField[] = [];
  for (const row of saved) {
    if (!known.includes(row.name)) continue;
    fields.push({
      name: row.name,
      label_en: row.label_en,
      label_ar: row.label_ar,
      is_active: Boolean(row.is_active),
      order: fields.length + 1,
    });
  }
  const configured = new Set(fields.map((field) => field.name));
  const missing = known.filter((name) => !configured.has(name)).sort((a, b) => rank(a, known) - rank(b, known));
  for (const name of missing) {
    fields.push({
      name,
      label_en: "",
      label_ar: "",
      is_active: saved.length === 0 && (DEFAULT_ACTIVE_FIELDS as readonly string[]).includes(name),
      order: fields.length + 1,
    });
  }
  return fields;
}

function rank(name: string, known: readonly string[]) {
  const index = (DEFAULT_ACTIVE_FIELDS as readonly string[]).indexOf(name);
  return index === -1 ? 100 + known.indexOf(name) : index;
}

export type FieldChoice = { name: string; label_en?: string; label_ar?: string; is_active?: boolean; order?: number };

/**
 * Renames, shows, hides and reorders a section's columns (unknown names refused, labels trimmed to
 * 64 characters), and writes who changed them to the audit log in the same database transaction:
 * the page and the API both change them through here.
 */
export async function saveTableFields(
  db: DB,
  merchantId: number,
  section: string,
  choices: FieldChoice[],
  actor: { id: number; username: string },
  sectionFields: readonly string[] = [],
) {
  const current = await loadTableFields(db, merchantId, section, sectionFields);
  const byName = new Map(current.map((field) => [field.name, field]));
  for (const choice of choices) {
    const field = byName.get(choice.name);
    if (!field) return { ok: false as const, unknown: choice.name };
    // An empty label stands for the platform's own wording of the column.
    if (choice.label_en !== undefined) field.label_en = choice.label_en.trim().slice(0, 64);
    if (choice.label_ar !== undefined) field.label_ar = choice.label_ar.trim().slice(0, 64);
    if (choice.is_active !== undefined) field.is_active = choice.is_active;
    if (choice.order !== undefined && Number.isFinite(choice.order)) field.order = choice.order;
  }
  const position = (name: string) => current.findIndex((field) => field.name === name);
  const ordered = [...byName.values()].sort((a, b) => a.order - b.order || position(a.name) - position(b.name));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("table_fields").where("merchant_id", "=", merchantId).where("section", "=", section).execute();
    await trx
      .insertInto("table_fields")
      .values(
        ordered.map((field, index) => ({
          merchant_id: merchantId,
          section,
          name: field.name,
          label_en: field.label_en,
          label_ar: field.label_ar,
          is_active: field.is_active ? 1 : 0,
          position: index + 1,
        })),
      )
      .execute();
    await recordAudit(trx, {
      merchantId,
      actor,
      action: "table_headers_changed",
      params: {
        section: word(`sections.${section}`),
        columns: list(
          ordered
            .filter((field) => field.is_active)
            .map((field) =>
              field.label_en && field.label_ar
                ? named(field.label_en, field.label_ar)
                : word(`fields.${field.name}`, field.name),
            ),
        ),
      },
      objectType: "section",
      objectId: section,
    });
  });
  return { ok: true as const, fields: await loadTableFields(db, merchantId, section, sectionFields) };
}

/** A cell for a file: amounts as plain decimals, times in ISO, no translation of codes but states. */
export function plainValue(row: TransactionRow, name: FieldName): string {
  const decimal = (minor: number) => toDecimalString(minor, row.currency_code);
  switch (name) {
    case "id":
      return row.id;
    case "order_no":
      return String(row.order_no);
    case "created":
      return row.created_at;
    case "state_changed_at":
      return row.state_changed_at;
    case "expiration_time":
      return row.expiration_time ?? "";
    case "customer_email":
      return row.customer_email ?? "";
    case "customer_phone":
      return row.customer_phone ?? "";
    case "customer_name":
      return [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ");
    case "amount":
      return decimal(row.amount);
    case "paid_amount":
      return decimal(row.paid_amount);
    case "fee":
      return decimal(row.fee);
    case "refunded_amount":
      return decimal(row.refunded_amount);
    case "currency_code":
      return row.currency_code;
    case "state":
      return row.state;
    case "gateway_name":
      return row.gateway_code ?? "";
    case "initiator":
      return row.initiator ?? "";
    case "unit":
      return row.unit_en ?? "";
    case "description":
      return row.description ?? "";
    case "product_type":
      return row.product_type ?? "";
    case "extra":
      return row.extra === "{}" ? "" : row.extra;
    case "auth_code":
      return row.auth_code ?? "";
    case "card_type":
      return row.card_type ?? "";
    case "ref_number":
      return row.reference_id ?? row.track_id ?? "";
  }
}
