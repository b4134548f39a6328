import type { Route } from "./+types/codes";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { apiDetail, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { listCodes, recordPairsRevealed } from "../../domain/codes.server";
import { serializeCode } from "../../presentation/codes.server";
import { REVEAL_PERMISSION, VIEW_PERMISSION } from "../../presentation/guard.server";

/**
 * GET codes: the merchant's codes, newest first (at most 200), {count, results}, each paired value
 * masked to its last four characters. `?reveal=1` gives them in full to a user holding
 * reveal_pairingcode (403 otherwise), and the audit log records it. Bearer tokens only.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, user.merchantId), "code_pairing", "codes"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, VIEW_PERMISSION);
  const reveal = new URL(request.url).searchParams.get("reveal") === "1";
  if (reveal) requireApiPermission(request, user, REVEAL_PERMISSION);
  const rows = await listCodes(db, user.merchantId);
  if (reveal)
    await recordPairsRevealed(db, {
      merchantId: user.merchantId,
      actor: { id: user.id, username: user.username },
      count: rows.length,
      channel: "api",
      ip: context.get(clientAddressContext),
    });
  return apiJson({ count: rows.length, results: rows.map((row) => serializeCode(row, reveal)) }, 200, {
    "Cache-Control": "no-store",
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
