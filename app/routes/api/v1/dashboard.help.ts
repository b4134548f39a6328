import type { Route } from "./+types/dashboard.help";
import { loadMerchantBranding } from "~/domain/merchants/merchants.server";
import { HELP_SUBJECTS, HelpSchema } from "~/domain/messaging/help-schema";
import { sendHelpRequest } from "~/domain/messaging/help.server";
import { apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, requireApiUser } from "~/web/api.server";
import { env } from "~/lib/env.server";
import { translator } from "~/lib/i18n.server";
import { getDbFrom } from "~/web/request-context.server";

/** OPTIONS describes the form (the subject choices); POST email, subject, email_message sends it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(request, context);
  if (request.method !== "OPTIONS") return methodNotAllowed(request);
  const t = translator(apiLanguage(request));
  return apiJson({
    name: "Help",
    actions: {
      POST: {
        email: { type: "email", required: true, label: t("help.email") },
        subject: {
          type: "choice",
          required: true,
          label: t("help.subject"),
          choices: HELP_SUBJECTS.map((value) => ({ value, display_name: t(`help.subjects.${value}`) })),
        },
        email_message: { type: "string", required: false, label: t("help.message"), max_length: 5000 },
      },
    },
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  const parsed = HelpSchema.safeParse(await readBody(request));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
    return apiErrors(request, errors);
  }
  const db = getDbFrom(context);
  const branding = await loadMerchantBranding(db, user.merchantId);
  await sendHelpRequest(db, {
    user,
    merchantTitle: branding.title_en,
    supportAddress: env().SUPPORT_EMAIL,
    email: parsed.data.email,
    subject: parsed.data.subject,
    message: parsed.data.email_message ?? "",
  });
  return apiJson({ success: true, message: translator(apiLanguage(request))("help.sent") }, 201);
}
