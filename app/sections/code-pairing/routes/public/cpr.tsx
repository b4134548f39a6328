import "~/styles/customer.css";
import "~/styles/pay.css";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/cpr";
import { PublicHeader } from "~/components/customer/public-header";
import { Alert, Button, Card, TextField } from "~/components/pay/ui";
import { useText } from "~/components/pay/use-text";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { requestMaker } from "~/sections/services.server";
import { pairCode } from "../../domain/pairing.server";
import { cprPageView, fieldMessages, languageOf, siteOfRequest, type CprPageView } from "./cpr-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); pairing is a plain POST. */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page && "title" in page ? page.title : "Pay" }, { name: "robots", content: "noindex" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const site = await siteOfRequest(db, request, new URL(request.url).searchParams.get("site"));
  const view = await cprPageView(db, site, lang);
  return data(view, { status: view.found ? 200 : 404 });
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const form = await readFormData(request);
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const values = { code: text("code", 60), pair: text("pair", 80) };
  const site = await siteOfRequest(db, request, text("site", 300) || new URL(request.url).searchParams.get("site"));
  if (!site)
    return data(
      { values, errors: fieldMessages({ non_field_errors: ["cpr_public.unknown_site"] }, undefined, lang) },
      { status: 404 },
    );
  const outcome = await pairCode(db, {
    site,
    code: values.code,
    pair: values.pair,
    ip: context.get(clientAddressContext),
    lang,
    makeRequest: requestMaker(),
  });
  if (outcome.ok) return redirect(`/${lang}/pay/${outcome.transactionId}`, 303);
  if (outcome.kind === "closed")
    return data(
      { values, errors: fieldMessages({ non_field_errors: ["cpr_public.unknown_site"] }, undefined, lang) },
      { status: 404 },
    );
  if (outcome.kind === "throttled")
    return data(
      {
        values,
        errors: fieldMessages(
          { non_field_errors: ["cpr_public.errors.throttled"] },
          { minutes: outcome.minutes },
          lang,
        ),
      },
      { status: 429 },
    );
  return data({ values, errors: fieldMessages(outcome.errors, undefined, lang) }, { status: 400 });
}

export default function CodePairingPage() {
  const t = useText();
  const page = useLoaderData<typeof loader>() as CprPageView;
  const answer = useActionData<typeof action>();
  const errors: Record<string, string> = answer?.errors ?? {};
  if (!page.found) {
    return (
      <div className="pay-page">
        <main className="c-main c-main--narrow">
          <div className="c-stack">
            <h1 className="c-title">{page.title}</h1>
            <Alert color="orange" role="status">
              {t("cpr_public.unknown_site")}
            </Alert>
          </div>
        </main>
      </div>
    );
  }
  return (
    <div className="pay-page">
      {page.unit ? (
        <PublicHeader
          unit={page.unit}
          lang={page.lang}
          path={`/${page.lang}/cpr?site=${encodeURIComponent(page.site)}`}
        />
      ) : null}
      <main className="c-main c-main--narrow">
        <div className="c-stack">
          <h1 className="c-title">{page.title}</h1>
          <p>{t("cpr_public.intro", { label: page.pairLabel })}</p>
          {/* The site stays in the address the form is sent to: the page answering it knows the merchant too. */}
          <form method="post" action={`/${page.lang}/cpr?site=${encodeURIComponent(page.site)}`} className="c-stack">
            <input type="hidden" name="site" value={page.site} />
            {errors.non_field_errors ? <Alert color="red">{errors.non_field_errors}</Alert> : null}
            <Card>
              <div className="c-stack">
                <TextField
                  name="code"
                  label={t("cpr_public.code")}
                  required
                  maxLength={60}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  defaultValue={answer?.values?.code ?? ""}
                  error={errors.code}
                  dir="ltr"
                />
                <TextField
                  name="pair"
                  label={page.pairLabel}
                  required
                  maxLength={80}
                  autoComplete="off"
                  spellCheck={false}
                  defaultValue={answer?.values?.pair ?? ""}
                  error={errors.pair}
                  dir="auto"
                />
              </div>
            </Card>
            <Button type="submit" fullWidth size="lg">
              {t("cpr_public.continue")}
            </Button>
          </form>
        </div>
      </main>
    </div>
  );
}
