import type { Route } from "./+types/transaction-fields-overview";
import { can, tableHeaderPermission } from "~/domain/identity/permissions";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { TRANSACTION_SECTIONS } from "~/sections/registry";
import { loadTableFields } from "~/domain/transactions/fields.server";
import { presentTableFields } from "~/presentation/transactions.server";
import { sectionFieldNames, transactionExtensions } from "~/sections/registry.server";
import { apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * GET plugins/transaction-fields: every transaction section the merchant has, with its columns
 * and whether this user may edit them. GET plugins/transaction-fields/check/{section}/:
 * {enabled} — the section exists for the merchant and the user may edit its headers.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  const available = await loadAvailableSections(db, user.merchantId);
  const sections = TRANSACTION_SECTIONS.map((section) => section.key).filter((section) =>
    hasFeature(available, section, "transactions"),
  );
  const editable = (section: string) => sections.includes(section) && can(user, tableHeaderPermission(section));
  if (params.section !== undefined) return apiJson({ enabled: editable(params.section) });
  requireApiPermission(request, user, "view_paymenttransaction");
  const results = await Promise.all(
    sections.map(async (section) => ({
      section,
      enabled: editable(section),
      fields: presentTableFields(
        await loadTableFields(db, user.merchantId, section, sectionFieldNames(section)),
        transactionExtensions(section),
      ),
    })),
  );
  return apiJson(results);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
