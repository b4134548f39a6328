import { sql } from "kysely";
import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { createMerchant, type MerchantSection } from "~/domain/merchants/merchants.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { refuse, type Refusal } from "~/lib/outcome";
import { createInvitationLink, INVITATION_TTL_MS } from "./passwords.server";
import { checkInvitation } from "./user-admin.server";

/**
 * A new merchant on a multi-merchant installation, made by the platform's operator (the operator
 * page, or `npm run merchant:create` on the server): the merchant, its default unit and sections,
 * and its first superuser, who is invited by e-mail to choose a password. Nothing else of another
 * merchant is touched or read. The first entry of the new merchant's audit log says who made it.
 */
export type NewMerchantInput = {
  name: string;
  titleEn: string;
  titleAr: string;
  adminUsername: string;
  adminEmail: string;
  sections: readonly MerchantSection[];
};

export function checkNewMerchant(input: {
  name: unknown;
  title_en?: unknown;
  title_ar?: unknown;
  admin_username: unknown;
  admin_email: unknown;
}) {
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const errors: Record<string, string[]> = {};
  const name = text(input.name);
  if (!name || name.length > 100) errors.name = ["operator.errors.name"];
  const titleEn = text(input.title_en) || name;
  const titleAr = text(input.title_ar) || name;
  if (titleEn.length > 100) errors.title_en = ["operator.errors.name"];
  if (titleAr.length > 100) errors.title_ar = ["operator.errors.name"];
  const admin = checkInvitation({ username: input.admin_username, email: input.admin_email });
  if (admin.errors.username) errors.admin_username = admin.errors.username;
  if (admin.errors.email) errors.admin_email = admin.errors.email;
  return {
    errors,
    value: { name, titleEn, titleAr, adminUsername: admin.value.username, adminEmail: admin.value.email },
  };
}

export async function createMerchantWithAdmin(
  db: DB,
  input: NewMerchantInput & {
    actor: { id: number; username: string } | "system";
    baseUrl: string;
    lang: Language;
    ip?: string | null;
  },
): Promise<{ ok: true; merchantId: number; userId: number } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where(sql<boolean>`lower(username) = ${input.adminUsername.toLowerCase()}`)
      .executeTakeFirst();
    if (taken) return refuse("admin.users.errors.username_taken", { field: "admin_username" });
    const sameName = await trx
      .selectFrom("merchants")
      .select("id")
      .where(sql<boolean>`lower(name) = ${input.name.toLowerCase()}`)
      .executeTakeFirst();
    if (sameName) return refuse("operator.errors.name_taken", { field: "name" });
    const merchantId = await createMerchant(trx, {
      name: input.name,
      titleEn: input.titleEn,
      titleAr: input.titleAr,
      sections: input.sections,
      demoBranding: false,
    });
    const user = await trx
      .insertInto("users")
      .values({
        merchant_id: merchantId,
        username: input.adminUsername,
        email: input.adminEmail,
        first_name: "",
        last_name: "",
        password_hash: "!",
        is_superuser: 1,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createInvitationLink(trx, user.id);
    await queueMail(trx, {
      merchantId,
      to: input.adminEmail,
      template: "invitation",
      params: {
        username: input.adminUsername,
        merchant: input.lang === "ar" ? input.titleAr : input.titleEn,
        inviter:
          typeof input.actor === "string"
            ? input.lang === "ar"
              ? "مشغّل المنصة"
              : "The platform's operator"
            : input.actor.username,
        link: `${input.baseUrl}/${input.lang}/reset-password?token=${token}`,
        days: INVITATION_TTL_MS / 86_400_000,
      },
      lang: input.lang,
    });
    await recordAudit(trx, {
      merchantId,
      actor: input.actor,
      action: "merchant_created",
      params: { merchant: input.name, username: input.adminUsername },
      objectType: "merchant",
      objectId: merchantId,
      ip: input.ip ?? null,
    });
    return { ok: true as const, merchantId, userId: user.id };
  });
}

/** The installation's merchants as the operator sees them: names and counts, none of their data. */
export async function listMerchantsForOperator(db: DB) {
  const merchants = await db
    .selectFrom("merchants")
    .select(["id", "name", "title_en", "title_ar", "is_active", "created_at"])
    .orderBy("id")
    .execute();
  const users = await db
    .selectFrom("users")
    .select(["merchant_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("kind", "=", "person")
    .where("is_active", "=", 1)
    .groupBy("merchant_id")
    .execute();
  return merchants.map((merchant) => ({
    ...merchant,
    created_at: new Date(merchant.created_at as string).toISOString(),
    is_active: Boolean(merchant.is_active),
    users: Number(users.find((row) => row.merchant_id === merchant.id)?.n ?? 0),
  }));
}
