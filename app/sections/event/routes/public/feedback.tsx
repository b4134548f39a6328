import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/events-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/feedback";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, TextAreaField, TextField } from "~/components/pay/ui";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { FeedbackSchema } from "../../domain/feedback-schema.server";
import { leaveFeedback } from "../../domain/public-events.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { fieldMessages, languageOf, requirePublishedEvent } from "./event-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "شاركنا رأيك" : "Leave feedback" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const { event, unit } = await requirePublishedEvent(getDbFrom(context), params.slug, lang);
  return { lang, unit, title: lang === "ar" ? event.title_ar : event.title_en };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { event } = await requirePublishedEvent(db, params.slug, lang);
  const form = await readFormData(request);
  const values = Object.fromEntries(
    ["rating", "comment", "name", "email"].map((name) => [name, String(form.get(name) ?? "").slice(0, 2000)]),
  );
  const parsed = FeedbackSchema.safeParse(values);
  if (!parsed.success) {
    const errors = Object.fromEntries(
      parsed.error.issues.map((issue) => [
        String(issue.path[0]),
        [issue.message.includes(".") ? issue.message : "errors.required"],
      ]),
    );
    return data({ errors: fieldMessages(errors, undefined, lang), values }, { status: 400 });
  }
  const saved = await leaveFeedback(db, { event, feedback: parsed.data, ip: context.get(clientAddressContext) });
  if (!saved.ok) return data({ errors: fieldMessages(saved.errors, undefined, lang), values }, { status: 429 });
  return redirect(`/${lang}/events/leave-feedback/${encodeURIComponent(event.slug)}/thanks`, 303);
}

export default function Feedback() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const errors: Record<string, string> = answer?.errors ?? {};
  const values: Record<string, string> = answer?.values ?? {};
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <Card padding="xl">
        <form method="post" className="c-stack">
          <h1 className="c-title">{t("events_public.feedback.title")}</h1>
          <p className="c-dimmed">{page.title}</p>
          {errors.non_field_errors ? <Alert color="red">{errors.non_field_errors}</Alert> : null}
          <fieldset className="c-choices" aria-describedby={errors.rating ? "rating-error" : undefined}>
            <legend>{t("events_public.feedback.rating")}</legend>
            <div className="event-stars">
              {[1, 2, 3, 4, 5].map((rating) => (
                <label key={rating}>
                  <input
                    type="radio"
                    name="rating"
                    value={rating}
                    required
                    defaultChecked={values.rating === String(rating)}
                  />
                  <span aria-hidden>{"★".repeat(rating)}</span>
                  <span className="c-small">{rating}</span>
                </label>
              ))}
            </div>
            {errors.rating ? (
              <p className="c-field__error" id="rating-error">
                {errors.rating}
              </p>
            ) : null}
          </fieldset>
          <TextAreaField
            name="comment"
            label={t("events_public.feedback.comment")}
            maxLength={2000}
            rows={4}
            defaultValue={values.comment ?? ""}
            error={errors.comment}
            dir="auto"
          />
          <TextField
            name="name"
            label={t("events_public.feedback.name")}
            maxLength={100}
            required
            autoComplete="name"
            defaultValue={values.name ?? ""}
            error={errors.name}
            dir="auto"
          />
          <TextField
            name="email"
            label={t("events_public.feedback.email")}
            type="email"
            inputMode="email"
            maxLength={254}
            autoComplete="email"
            defaultValue={values.email ?? ""}
            error={errors.email}
            dir="ltr"
          />
          <Button type="submit" fullWidth>
            {t("events_public.feedback.submit")}
          </Button>
        </form>
      </Card>
    </CustomerLayout>
  );
}
