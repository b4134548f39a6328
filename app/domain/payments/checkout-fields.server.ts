import { engineOf, lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { list, named, refuse, word, type NameParam, type Refusal, type TextParams } from "~/lib/outcome";
import { checkValues, type CheckedValues, type FieldChanges, type ValueError } from "./checkout-fields";
import { findPublicTransaction } from "./pay-page.server";

/**
 * The fields a merchant asks customers to fill in on a section's pay page, and the values customers
 * give (stored on the transaction's `extra`, by field name). Which sections offer them is the
 * adapters' to say: the section's declaration opts in (`transactions.checkoutFields`).
 */

const FIELD_COLUMNS = [
  "id",
  "section",
  "name",
  "label_en",
  "label_ar",
  "placeholder_en",
  "placeholder_ar",
  "validator",
  "required",
  "max_length",
  "position",
  "is_active",
  "created_at",
  "updated_at",
] as const;

type Actor = { id: number; username: string };
/** The section a field belongs to: its key, and its name in both languages for the audit. */
export type FieldSection = { key: string; name: NameParam };

function ownFields(db: DB, merchantId: number, section: string) {
  return db
    .selectFrom("checkout_fields")
    .select(FIELD_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("section", "=", section);
}

function viewOf(row: Awaited<ReturnType<ReturnType<typeof ownFields>["executeTakeFirstOrThrow"]>>) {
  return {
    id: row.id,
    section: row.section,
    name: row.name,
    label_en: row.label_en,
    label_ar: row.label_ar,
    placeholder_en: row.placeholder_en,
    placeholder_ar: row.placeholder_ar,
    validator: row.validator,
    required: Boolean(row.required),
    max_length: row.max_length,
    position: row.position,
    is_active: Boolean(row.is_active),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export type CheckoutField = ReturnType<typeof viewOf>;

/** Every field of the merchant's section, in the order customers see them (turned-off ones too). */
export async function listCheckoutFields(db: DB, merchantId: number, section: string): Promise<CheckoutField[]> {
  return (await ownFields(db, merchantId, section).orderBy("position").orderBy("id").execute()).map(viewOf);
}

export async function findCheckoutField(
  db: DB,
  merchantId: number,
  section: string,
  id: number,
): Promise<CheckoutField | undefined> {
  const row = await ownFields(db, merchantId, section).where("id", "=", id).executeTakeFirst();
  return row && viewOf(row);
}

/** The fields a customer fills in, in order: one query, for the pay page and the pay API. */
export function activeCheckoutFields(db: DB, merchantId: number, section: string) {
  return db
    .selectFrom("checkout_fields")
    .select(["name", "label_en", "label_ar", "placeholder_en", "placeholder_ar", "validator", "required", "max_length"])
    .where("merchant_id", "=", merchantId)
    .where("section", "=", section)
    .where("is_active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/** An active field as a customer reads it, in their language (the pay page's and the pay API's). */
export function customerFieldView(field: Awaited<ReturnType<typeof activeCheckoutFields>>[number], lang: "en" | "ar") {
  return {
    name: field.name,
    label: lang === "ar" ? field.label_ar : field.label_en,
    placeholder: (lang === "ar" ? field.placeholder_ar : field.placeholder_en) ?? null,
    validator: field.validator,
    required: Boolean(field.required),
    max_length: field.max_length,
  };
}

const fieldName = (field: { label_en: string; label_ar: string }) => named(field.label_en, field.label_ar);

/**
 * Puts `field` at `position` (1 is first; past the end is last) among the section's fields, in
 * their order, renumbering them 1, 2, 3…; the place it took, or null when nothing moved.
 */
async function placeField(
  trx: DB,
  fields: readonly { id: number; position: number }[],
  field: { id: number; position: number },
  position: number,
): Promise<number | null> {
  const order = fields.filter((row) => row.id !== field.id);
  const index = Math.min(Math.max(position, 1), order.length + 1) - 1;
  order.splice(index, 0, field);
  if (!order.some((row, rank) => row.position !== rank + 1)) return null;
  for (const [rank, row] of order.entries()) {
    if (row.position !== rank + 1)
      await trx
        .updateTable("checkout_fields")
        .set({ position: rank + 1 })
        .where("id", "=", row.id)
        .execute();
  }
  return index + 1;
}

/** Adds a field, last in the section's order unless a `position` is given, audited; a name the section already has is refused. */
export async function createCheckoutField(
  db: DB,
  input: { merchantId: number; actor: Actor; section: FieldSection; settings: FieldChanges; ip?: string | null },
): Promise<{ ok: true; field: CheckoutField } | Refusal> {
  const { name, label_en, label_ar, validator, max_length, placeholder_en, placeholder_ar, required, is_active } =
    input.settings;
  if (!name || !label_en || !label_ar || !validator || max_length === undefined)
    throw new Error("createCheckoutField: the settings were not checked");
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const existing = await ownFields(trx, input.merchantId, input.section.key)
      .orderBy("position")
      .orderBy("id")
      .execute();
    if (existing.some((row) => row.name === name))
      return refuse("checkout_fields.errors.name_taken", { field: "name" });
    const at = nowIso();
    const last = Math.max(0, ...existing.map((row) => row.position)) + 1;
    const { id } = await trx
      .insertInto("checkout_fields")
      .values({
        merchant_id: input.merchantId,
        section: input.section.key,
        name,
        label_en,
        label_ar,
        placeholder_en: placeholder_en ?? null,
        placeholder_ar: placeholder_ar ?? null,
        validator,
        required: required ? 1 : 0,
        max_length,
        position: last,
        is_active: is_active === false ? 0 : 1,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.settings.position !== undefined)
      await placeField(trx, [...existing, { id, position: last }], { id, position: last }, input.settings.position);
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "checkout_field_created",
      params: { field: named(label_en, label_ar), section: input.section.name },
      objectType: "checkout_field",
      objectId: id,
      ip: input.ip ?? null,
    });
    return { ok: true as const, field: (await findCheckoutField(trx, input.merchantId, input.section.key, id))! };
  });
}

/** The words of each setting, for the audit line that names what changed. */
const SETTING_LABELS = {
  label_en: "admin.checkout_fields.fields.label_en",
  label_ar: "admin.checkout_fields.fields.label_ar",
  placeholder_en: "admin.checkout_fields.fields.placeholder_en",
  placeholder_ar: "admin.checkout_fields.fields.placeholder_ar",
  validator: "admin.checkout_fields.fields.validator",
  required: "admin.checkout_fields.fields.required",
  max_length: "admin.checkout_fields.fields.max_length",
} as const;

/**
 * Changes a field of the merchant's section: its settings, its state (a field turned off keeps its
 * row, so values already given keep their label) and its place in the order (`position`, 1 is
 * first; past the end is last). Each kind of change is audited. Another merchant's field, or one
 * of another section, is not found.
 */
export async function updateCheckoutField(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    section: FieldSection;
    id: number;
    changes: FieldChanges;
    ip?: string | null;
  },
): Promise<{ ok: true; field: CheckoutField; changed: boolean } | Refusal> {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.merchantId);
    const fields = await ownFields(trx, input.merchantId, input.section.key)
      .orderBy("position")
      .orderBy("id")
      .execute();
    const current = fields.find((row) => row.id === input.id);
    if (!current) return refuse("checkout_fields.errors.not_found");
    const { position, is_active: active } = input.changes;
    const stored: Partial<Record<keyof typeof SETTING_LABELS, string | number | null>> = {};
    for (const key of Object.keys(SETTING_LABELS) as (keyof typeof SETTING_LABELS)[]) {
      const value = input.changes[key];
      if (value !== undefined) stored[key] = typeof value === "boolean" ? Number(value) : value;
    }
    const changed = (Object.keys(stored) as (keyof typeof SETTING_LABELS)[]).filter(
      (key) => stored[key] !== current[key],
    );
    const after = {
      label_en: input.changes.label_en ?? current.label_en,
      label_ar: input.changes.label_ar ?? current.label_ar,
    };
    const audit = (action: string, params: TextParams = {}) =>
      recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action,
        params: { field: fieldName(after), section: input.section.name, ...params },
        objectType: "checkout_field",
        objectId: current.id,
        ip: input.ip ?? null,
      });
    let anything = false;
    const at = nowIso();

    if (changed.length) {
      await trx
        .updateTable("checkout_fields")
        .set({ ...Object.fromEntries(changed.map((key) => [key, stored[key]])), updated_at: at })
        .where("id", "=", current.id)
        .execute();
      await audit("checkout_field_changed", { fields: list(changed.map((key) => word(SETTING_LABELS[key]))) });
      anything = true;
    }
    if (active !== undefined && Number(active) !== current.is_active) {
      await trx
        .updateTable("checkout_fields")
        .set({ is_active: active ? 1 : 0, updated_at: at })
        .where("id", "=", current.id)
        .execute();
      await audit(active ? "checkout_field_activated" : "checkout_field_deactivated");
      anything = true;
    }
    const placed = position === undefined ? null : await placeField(trx, fields, current, position);
    if (placed !== null) {
      await audit("checkout_field_moved", { position: placed });
      anything = true;
    }
    return {
      ok: true as const,
      field: (await findCheckoutField(trx, input.merchantId, input.section.key, current.id))!,
      changed: anything,
    };
  });
}

/** One step up or down the order (the page's arrows); nothing at the end it is already at. */
export async function moveCheckoutField(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    section: FieldSection;
    id: number;
    direction: "up" | "down";
    ip?: string | null;
  },
) {
  const field = await findCheckoutField(db, input.merchantId, input.section.key, input.id);
  if (!field) return refuse("checkout_fields.errors.not_found");
  const position = Math.max(1, field.position + (input.direction === "up" ? -1 : 1));
  return updateCheckoutField(db, { ...input, changes: { position } });
}

function parsedExtra(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A customer's checked values, to be kept on the transaction when its attempt starts (see startAttempt). */
export type CheckoutAnswers = Extract<CheckedValues, { ok: true }>;

/**
 * Checks a customer's values against the active fields of the transaction's section; writes nothing.
 * Run before an attempt starts: a refusal means none may start, and the answers are kept by
 * startAttempt in the same database transaction as the attempt, after its own checks (so a refused
 * or replayed payment changes nothing). `sections`: the payable sections whose declaration offers
 * checkout fields; for a transaction of another, or one not found, there is nothing to check (null)
 * and starting the attempt says what is wrong.
 */
export async function checkCheckoutValues(
  db: DB,
  input: {
    transactionId: string;
    sections: readonly string[];
    values: Record<string, unknown>;
    refuseUnknown: boolean;
  },
): Promise<{ ok: true; answers: CheckoutAnswers | null } | { ok: false; errors: Record<string, ValueError[]> }> {
  const transaction = await findPublicTransaction(db, input.transactionId, input.sections);
  if (!transaction) return { ok: true, answers: null };
  const fields = await activeCheckoutFields(db, transaction.merchant_id, transaction.plugin);
  const checked = checkValues(fields, input.values, { refuseUnknown: input.refuseUnknown });
  if (!checked.ok) return checked;
  return { ok: true, answers: fields.length ? checked : null };
}

/** Merges checked answers into the transaction's `extra` (an optional field sent empty takes its value away). Inside the attempt's transaction. */
export async function keepCheckoutAnswers(trx: DB, transactionId: string, answers: CheckoutAnswers) {
  const row = await trx
    .selectFrom("transactions")
    .select("extra")
    .where("id", "=", transactionId)
    .$if(engineOf(trx) === "postgres", (query) => query.forUpdate())
    .executeTakeFirstOrThrow();
  const next = { ...parsedExtra(row.extra), ...answers.values };
  for (const name of answers.cleared) delete next[name];
  const json = JSON.stringify(next);
  if (json !== row.extra)
    await trx.updateTable("transactions").set({ extra: json }).where("id", "=", transactionId).execute();
}

/**
 * The checkout values stored on a transaction, each with the label of its field in both languages
 * (a field turned off since keeps its label), in the fields' order. Keys of `extra` that name no
 * field of the section are left to whoever reads `extra` itself.
 */
export async function labelledCheckoutValues(
  db: DB,
  transaction: { merchant_id: number; plugin: string; extra: string },
) {
  const extra = parsedExtra(transaction.extra);
  const names = Object.keys(extra);
  if (!names.length) return [];
  const fields = await db
    .selectFrom("checkout_fields")
    .select(["name", "label_en", "label_ar"])
    .where("merchant_id", "=", transaction.merchant_id)
    .where("section", "=", transaction.plugin)
    .where("name", "in", names)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return fields.map((field) => {
    const value = extra[field.name];
    return {
      name: field.name,
      label: fieldName(field),
      value: typeof value === "string" ? value : JSON.stringify(value),
    };
  });
}
