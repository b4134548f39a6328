import type { Route } from "./+types/codes-export";
import { getDbFrom, clientAddressContext } from "~/web/request-context.server";
import { requirePermission } from "~/web/guards.server";
import { listCodes, recordPairsRevealed } from "../domain/codes.server";
import { codesCsv } from "../presentation/codes.server";
import { guardPairingPage, REVEAL_PERMISSION } from "../presentation/guard.server";

const EXPORT_LIMIT = 100_000;

/**
 * The merchant's codes as a CSV file, paired values masked; `?reveal=1` gives them in full to staff
 * who may reveal them (403 otherwise), and the audit log records it.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang } = await guardPairingPage(context, request, params, "codes");
  const reveal = new URL(request.url).searchParams.get("reveal") === "1";
  if (reveal) requirePermission(auth, REVEAL_PERMISSION);
  const db = getDbFrom(context);
  const rows = await listCodes(db, auth.user.merchantId, { limit: EXPORT_LIMIT });
  if (reveal)
    await recordPairsRevealed(db, {
      merchantId: auth.user.merchantId,
      actor: { id: auth.user.id, username: auth.user.username },
      count: rows.length,
      channel: "export",
      ip: context.get(clientAddressContext),
    });
  return new Response(codesCsv(rows, reveal, lang), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="pairing-codes.csv"',
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
