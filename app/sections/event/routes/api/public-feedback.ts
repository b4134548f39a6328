import type { Route } from "./+types/public-feedback";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { FeedbackSchema } from "../../domain/feedback-schema.server";
import { leaveFeedback } from "../../domain/public-events.server";
import { apiFieldErrors } from "../public/event-page.server";
import { publicApiLanguage, requirePublicEvent } from "./public-api.server";

/** OPTIONS feedback/{slug}: the feedback form's fields. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (request.method !== "OPTIONS") return methodNotAllowed(request);
  const event = await requirePublicEvent(getDbFrom(context), request, params.slug);
  return apiJson(
    {
      event: event.slug,
      fields: [
        { name: "rating", type: "integer", required: true, min: 1, max: 5 },
        { name: "comment", type: "string", required: false, max_length: 2000 },
        { name: "name", type: "string", required: true, max_length: 100 },
        { name: "email", type: "email", required: false, max_length: 254 },
      ],
    },
    200,
    { Allow: "OPTIONS, POST" },
  );
}

/** POST feedback/{slug} {rating, comment, name, email}: kept for the merchant; 201, or 400 with field errors. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const event = await requirePublicEvent(db, request, params.slug);
  const body = await readBody(request);
  const parsed = FeedbackSchema.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      errors[String(issue.path[0] ?? "non_field_errors")] ??= [
        issue.message.includes(".") ? issue.message : "errors.required",
      ];
    return apiJson(apiFieldErrors(errors, undefined, lang), 400);
  }
  const saved = await leaveFeedback(db, { event, feedback: parsed.data, ip: context.get(clientAddressContext) });
  if (!saved.ok) return apiJson(apiFieldErrors(saved.errors, undefined, lang), 429);
  return apiJson({ id: saved.id, rating: parsed.data.rating }, 201);
}
