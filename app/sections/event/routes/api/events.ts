import type { Route } from "./+types/events";
import { EventSchema } from "~/sections/event/domain/event-schema";
import {
  createEvent,
  findMerchantEvents,
  listMerchantEvents,
  loadEventDetails,
  serializeEvent,
} from "~/sections/event/domain/events.server";
import { eventErrorMessages, issuesByField } from "~/sections/event/presentation/event-errors.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireEventApi } from "./access.server";

/**
 * GET: the merchant's events (`available=true`: published ones with places left on a date still
 * offered; `q`: part of a title or the slug). POST: creates one and answers 201 with it, its `id`
 * and each ticket's `id`. Errors are DRF-style by field; a ticket's or a field's are named by its
 * place in the list sent: `tickets.0.price`, `fields.1.name`. Idempotency-Key honoured.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireEventApi(request, context, "view_booking");
  const params = new URL(request.url).searchParams;
  const available = ["true", "1"].includes(params.get("available") ?? "");
  const rows = await listMerchantEvents(db, user.merchantId, { available, q: params.get("q") ?? undefined });
  const events = await findMerchantEvents(
    db,
    user.merchantId,
    rows.map((row) => row.id),
  );
  const results = [];
  for (const event of events) results.push(serializeEvent(await loadEventDetails(db, event), lang));
  return apiJson({ count: results.length, results });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireEventApi(request, context, "change_booking");
  const body = await readBody(request);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "event.create", body },
    async () => {
      const parsed = EventSchema.safeParse(body);
      if (!parsed.success) return { status: 400, body: eventErrorMessages(issuesByField(parsed.error.issues), lang) };
      const created = await createEvent(db, {
        merchantId: user.merchantId,
        actor: { id: user.id, username: user.username },
        event: parsed.data,
        ip: context.get(clientAddressContext),
      });
      if (!created.ok) return { status: 400, body: eventErrorMessages(created.errors, lang) };
      return { status: 201, body: serializeEvent(await loadEventDetails(db, created.event), lang) };
    },
  );
}
