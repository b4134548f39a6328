import type { Route } from "./+types/notification-template";
import {
  checkWording,
  findEditableTemplate,
  loadNotificationTemplate,
  previewNotificationTemplate,
  mayWord,
  resetNotificationTemplate,
  saveNotificationTemplate,
  type NotificationTemplateView,
  type TemplateErrors,
  type TemplateKey,
} from "~/domain/messaging/notification-templates.server";
import { translator } from "~/lib/i18n.server";
import { isLanguage } from "~/lib/i18n";
import {
  apiDetail,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

/** The message the address names; null for one nobody may word. */
function keyOf(params: Route.LoaderArgs["params"]): TemplateKey | null {
  const { template, channel, lang } = params;
  if (!isLanguage(lang) || (channel !== "mail" && channel !== "sms") || !findEditableTemplate(template, channel))
    return null;
  return { template, channel, lang };
}

const isPreview = (request: Request) => new URL(request.url).pathname.replace(/\/$/, "").endsWith("/preview");

/** The merchant's words at the top level (null: the default's), as PUT takes them, and the defaults beside. */
function viewJson(view: NotificationTemplateView) {
  return {
    template: view.template,
    channel: view.channel,
    lang: view.lang,
    audience: view.audience,
    customised: view.customised,
    updated_at: view.updated_at,
    updated_by: view.updated_by,
    placeholders: view.placeholders,
    required_placeholders: view.essential,
    ...view.wording,
    defaults: view.defaults,
  };
}

/** DRF's error shape in the caller's language; the domain's refusals carry the values their messages name. */
function templateErrors(request: Request, refused: TemplateErrors, fields: string[]) {
  const t = translator(apiLanguage(request));
  const body: Record<string, string[]> = Object.fromEntries(fields.map((field) => [field, [t("api.read_only_field")]]));
  for (const [field, list] of Object.entries(refused))
    body[field] = [...(body[field] ?? []), ...list.map((refusal) => t(refusal.code, refusal.params))];
  return apiJson(body, 400);
}

/** GET one message in one language: the merchant's words, the defaults and the placeholders. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (isPreview(request)) return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const key = keyOf(params);
  const view = key ? await loadNotificationTemplate(getDbFrom(context), user.merchantId, key) : undefined;
  return view ? apiJson(viewJson(view)) : apiDetail(request, "api.not_found", 404);
}

/**
 * PUT `{"subject", "heading", "intro", "action", "outro"}` (a mail) or `{"body"}` (a text message)
 * replaces the merchant's words: a part absent, null or blank is the default's. DELETE resets the
 * message to the default (204). POST on `.../preview` answers `{"subject", "html", "text"}` or
 * `{"text"}` as it would be sent, with sample values: of the words sent, or of those saved when
 * the body is empty.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const key = keyOf(params);
  if (!key) return apiDetail(request, "api.not_found", 404);
  const entry = findEditableTemplate(key.template, key.channel)!;
  const db = getDbFrom(context);
  const manager = managerOf(user);
  const ip = context.get(clientAddressContext);
  if (!isPreview(request) && !mayWord(user, entry))
    return apiDetail(request, "admin.templates.errors.staff_superuser", 403);
  if (request.method === "DELETE" && !isPreview(request)) {
    await resetNotificationTemplate(db, { manager, key, ip });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  if (request.method !== (isPreview(request) ? "POST" : "PUT")) return methodNotAllowed(request);
  const body = await readBody(request);
  const unknown = Object.keys(body).filter((field) => !(entry.parts as string[]).includes(field));
  const checked = checkWording(entry, key.lang, body);
  if (unknown.length || !checked.ok) return templateErrors(request, checked.ok ? {} : checked.errors, unknown);
  if (isPreview(request)) {
    const preview = await previewNotificationTemplate(db, {
      merchantId: user.merchantId,
      viewer: user,
      key,
      wording: Object.keys(body).length ? checked.wording : undefined,
      baseUrl: linkBaseUrl(),
    });
    return apiJson(
      preview.channel === "mail"
        ? { subject: preview.subject, html: preview.html, text: preview.text }
        : { text: preview.text },
    );
  }
  const saved = await saveNotificationTemplate(db, { manager, key, wording: body, ip });
  if (!saved.ok) return templateErrors(request, saved.errors, []);
  const view = await loadNotificationTemplate(db, user.merchantId, key);
  return apiJson(viewJson(view!));
}
