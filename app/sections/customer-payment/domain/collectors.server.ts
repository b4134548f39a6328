import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import { writeTransaction, type DB } from "~/db/database.server";
import type { CustomerPaymentCollectorTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { unitOf } from "~/domain/merchants/units.server";
import { nowIso } from "~/lib/clock.server";
import { publicId } from "~/lib/ids.server";
import { named } from "~/lib/outcome";
import { parseTextFields, type CollectorInput, type TextFieldSpec } from "./collector-schema";

export type Collector = Selectable<CustomerPaymentCollectorTable>;

const collectorColumns = [
  "id",
  "public_id",
  "merchant_id",
  "unit_id",
  "title_en",
  "title_ar",
  "description_en",
  "description_ar",
  "name_field",
  "email_field",
  "phone_field",
  "reference_field",
  "text_fields",
  "is_active",
  "created_at",
  "updated_at",
] as const;

/** The merchant's collectors, newest first, with how many payments each has had and how many were paid. */
export async function listCollectors(db: DB, merchantId: number) {
  const rows = await db
    .selectFrom("customer_payment_collectors")
    .select(collectorColumns)
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(500)
    .execute();
  const counts = rows.length
    ? await db
        .selectFrom("customer_payments")
        .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
        .select((eb) => [
          "customer_payments.collector_id",
          eb.fn.countAll<number>().as("payments"),
          eb.fn
            .sum<number>(
              eb.case().when("transactions.state", "in", ["paid", "authorized", "refunded"]).then(1).else(0).end(),
            )
            .as("paid"),
        ])
        .where("customer_payments.merchant_id", "=", merchantId)
        .groupBy("customer_payments.collector_id")
        .execute()
    : [];
  const byCollector = new Map(
    counts.map((row) => [row.collector_id, { payments: Number(row.payments), paid: Number(row.paid ?? 0) }]),
  );
  return rows.map((row) => ({ ...row, ...(byCollector.get(row.id) ?? { payments: 0, paid: 0 }) }));
}

export function getCollector(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("customer_payment_collectors")
    .select(collectorColumns)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A collector by its public id, whoever's it is (the public page names it alone); undefined for an id no collector has. */
export function findPublicCollector(db: DB, publicIdValue: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(publicIdValue)) return Promise.resolve(undefined);
  return db
    .selectFrom("customer_payment_collectors")
    .select(collectorColumns)
    .where("public_id", "=", publicIdValue)
    .executeTakeFirst();
}

/** Where customers pay a collector. */
export function collectorUrl(baseUrl: string, lang: "en" | "ar", collectorPublicId: string) {
  return `${baseUrl.replace(/\/$/, "")}/${lang}/pay/collect/${collectorPublicId}`;
}

/** A new free-text field's key: short, stable once made (the answers are kept under it). */
function newFieldName(taken: Set<string>) {
  let name: string;
  do name = `f${randomBytes(4).toString("hex")}`;
  while (taken.has(name));
  return name;
}

type Actor = { id: number; username: string };

/**
 * Creates a collector (`id` absent) or changes one of the merchant's. A free-text field keeps its key
 * when it is sent back with it, so answers already given stay under their field.
 */
export async function saveCollector(
  db: DB,
  change: { merchantId: number; actor: Actor; input: CollectorInput; id?: number; ip?: string | null },
): Promise<{ ok: true; collector: Collector } | { ok: false; errors: FieldErrors; notFound?: true }> {
  const input = change.input;
  const existing = change.id === undefined ? undefined : await getCollector(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  const errors: FieldErrors = {};
  if (input.unit !== null && !(await unitOf(db, change.merchantId, input.unit).select("id").executeTakeFirst()))
    errors.unit = ["collectors.errors.unit"];
  const kept = new Set(existing ? parseTextFields(existing.text_fields).map((field) => field.name) : []);
  input.text_fields.forEach((field, index) => {
    if (field.name && !kept.has(field.name)) errors[`text_fields.${index}.name`] = ["collectors.errors.field_name"];
  });
  if (Object.keys(errors).length) return { ok: false, errors };
  const taken = new Set(input.text_fields.map((field) => field.name).filter((name): name is string => Boolean(name)));
  const textFields: TextFieldSpec[] = input.text_fields.map((field) => {
    const name = field.name ?? newFieldName(taken);
    taken.add(name);
    return { name, label_en: field.label_en, label_ar: field.label_ar, required: field.required };
  });
  const values = {
    title_en: input.title_en,
    title_ar: input.title_ar,
    description_en: input.description_en,
    description_ar: input.description_ar,
    unit_id: input.unit,
    name_field: input.name_field,
    email_field: input.email_field,
    phone_field: input.phone_field,
    reference_field: input.reference_field,
    text_fields: JSON.stringify(textFields),
    is_active: input.is_active ? 1 : 0,
    updated_at: nowIso(),
  };
  const collector = await writeTransaction(db, async (trx) => {
    let id = existing?.id;
    if (existing)
      await trx
        .updateTable("customer_payment_collectors")
        .set(values)
        .where("id", "=", existing.id)
        .where("merchant_id", "=", change.merchantId)
        .execute();
    else
      id = (
        await trx
          .insertInto("customer_payment_collectors")
          .values({ ...values, public_id: publicId(), merchant_id: change.merchantId, created_at: values.updated_at })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: existing ? "collector_changed" : "collector_created",
      params: { title: named(input.title_en, input.title_ar) },
      objectType: "collector",
      objectId: id!,
      ip: change.ip ?? null,
    });
    return (await getCollector(trx, change.merchantId, id!))!;
  });
  return { ok: true, collector };
}

/** A collector as its form shows it. */
export function collectorFormValues(collector: Collector | undefined): Record<string, unknown> {
  if (!collector)
    return {
      name_field: "required",
      email_field: "optional",
      phone_field: "optional",
      reference_field: "off",
      text_fields: [],
      is_active: true,
      unit: "",
    };
  return {
    title_en: collector.title_en,
    title_ar: collector.title_ar,
    description_en: collector.description_en,
    description_ar: collector.description_ar,
    unit: collector.unit_id === null ? "" : String(collector.unit_id),
    name_field: collector.name_field,
    email_field: collector.email_field,
    phone_field: collector.phone_field,
    reference_field: collector.reference_field,
    text_fields: parseTextFields(collector.text_fields),
    is_active: Boolean(collector.is_active),
  };
}
