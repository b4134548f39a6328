import type { Route } from "./+types/transaction-fields";
import { z } from "zod";
import { tableHeaderPermission } from "~/domain/identity/permissions";
import { loadTableFields, saveTableFields } from "~/domain/transactions/fields.server";
import { presentTableFields } from "~/presentation/transactions.server";
import { sectionFieldNames, transactionExtensions } from "~/sections/registry.server";
import { apiErrors, apiJson, methodNotAllowed, requireApiPermission } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { readJsonBody, requireTransactionSection, respondOnce } from "~/sections/transaction-api.server";

const FieldChoiceSchema = z.object({
  name: z.string().min(1).max(64),
  label_en: z.string().max(200).optional(),
  label_ar: z.string().max(200).optional(),
  is_active: z.boolean().optional(),
  order: z.number().int().min(0).max(10_000).optional(),
});
const FieldChoicesSchema = z.union([
  z.array(FieldChoiceSchema).max(100),
  z.object({ fields: z.array(FieldChoiceSchema).max(100) }).transform((body) => body.fields),
]);

/** GET plugins/{plugin}/transaction/fields: the section's table columns in the merchant's order. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, section } = await requireTransactionSection(request, context, params.plugin);
  requireApiPermission(request, user, "view_paymenttransaction");
  return apiJson(
    presentTableFields(
      await loadTableFields(db, user.merchantId, section.key, sectionFieldNames(section.key)),
      transactionExtensions(section.key),
    ),
  );
}

/**
 * PATCH a list of {name, label_en, label_ar, is_active, order} (or {fields: [...]}): renames,
 * shows, hides and reorders the columns; fields not named keep their settings. Needs the
 * section's change_{x}transactionproxyfield. Answers the columns as saved.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT") return methodNotAllowed(request);
  const { user, db, section, lang } = await requireTransactionSection(request, context, params.plugin);
  requireApiPermission(request, user, tableHeaderPermission(section.key));
  const body = await readJsonBody(request);
  const parsed = FieldChoicesSchema.safeParse(body);
  if (!parsed.success) return apiErrors(request, { fields: ["api.invalid_fields"] });
  return respondOnce(request, db, user, `table_fields.${section.key}`, parsed.data, async () => {
    const saved = await saveTableFields(
      db,
      user.merchantId,
      section.key,
      parsed.data,
      { id: user.id, username: user.username },
      sectionFieldNames(section.key),
    );
    if (!saved.ok)
      return { status: 400, body: { fields: [translator(lang)("api.unknown_field", { name: saved.unknown })] } };
    return { status: 200, body: presentTableFields(saved.fields, transactionExtensions(section.key)) };
  });
}
