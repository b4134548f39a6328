import { Button, Card, Checkbox, Group, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/wallets";
import { PageHeader } from "~/components/page-header";
import { saveWalletSettings, walletSettingsView } from "~/domain/payments/wallet-settings.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

type Field =
  | "apple_merchant_identifier"
  | "apple_display_name"
  | "apple_domain_association"
  | "apple_certificate"
  | "apple_key"
  | "google_merchant_id";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الدفع بالمحافظ الرقمية" : "Wallet payments" }];
}

/** The installation's wallet settings are the operator's: Apple Pay belongs to the domain, not to a merchant. */
function requireOperator(context: Route.LoaderArgs["context"], request: Request) {
  const auth = requireUser(context, request);
  if (!auth.user.isOperator) notFound();
  return auth;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context, request);
  const base = platformAddresses(request).publicBaseUrl;
  return {
    settings: await walletSettingsView(getDbFrom(context)),
    domain: new URL(base).hostname,
    associationUrl: `${base}/.well-known/apple-developer-merchantid-domain-association`,
  };
}

type ActionResult = { error: { field: string; code: string }; values: Record<string, string> };

export async function action({ context, request, params }: Route.ActionArgs) {
  requireOperator(context, request);
  const form = await readFormData(request);
  const text = (name: string) => String(form.get(name) ?? "");
  const saved = await saveWalletSettings(getDbFrom(context), {
    appleMerchantIdentifier: text("apple_merchant_identifier"),
    appleDisplayName: text("apple_display_name"),
    appleDomainAssociation: text("apple_domain_association"),
    appleCertificate: text("apple_certificate"),
    appleKey: text("apple_key"),
    googleMerchantId: text("google_merchant_id"),
    removeDomainAssociation: form.get("remove_domain_association") === "on",
  });
  if (!saved.ok) {
    // The key is never sent back to the browser.
    const values = {
      apple_merchant_identifier: text("apple_merchant_identifier"),
      apple_display_name: text("apple_display_name"),
      google_merchant_id: text("google_merchant_id"),
    };
    return data<ActionResult>(
      { error: { field: saved.field ?? "apple_merchant_identifier", code: saved.code }, values },
      { status: 400 },
    );
  }
  return redirect(`/${params.lang}/operator/wallets`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "operator.wallets.saved" }) },
  });
}

export default function WalletsPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang as Language;
  const { settings, domain, associationUrl } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const error = (field: Field) => (result?.error.field === field ? t(result.error.code) : undefined);
  const value = (field: string, stored: string) => result?.values[field] ?? stored;
  return (
    <Stack maw={800}>
      <PageHeader title={t("operator.wallets.title")} description={t("operator.wallets.subtitle", { domain })} />
      <Form method="post">
        <Stack>
          <Card withBorder padding="lg">
            <Stack>
              <Text fw={600} component="h2" size="lg">
                {t("operator.wallets.apple_pay")}
              </Text>
              <TextInput
                name="apple_merchant_identifier"
                label={t("operator.wallets.fields.merchant_identifier")}
                description={t("operator.wallets.hints.merchant_identifier")}
                dir="ltr"
                maxLength={130}
                defaultValue={value("apple_merchant_identifier", settings.appleMerchantIdentifier)}
                error={error("apple_merchant_identifier")}
              />
              <TextInput
                name="apple_display_name"
                label={t("operator.wallets.fields.display_name")}
                maxLength={64}
                defaultValue={value("apple_display_name", settings.appleDisplayName)}
                error={error("apple_display_name")}
              />
              <Textarea
                name="apple_domain_association"
                label={t("operator.wallets.fields.domain_association")}
                description={
                  settings.hasDomainAssociation
                    ? t("operator.wallets.hints.association_kept", { url: associationUrl })
                    : t("operator.wallets.hints.association", { url: associationUrl })
                }
                dir="ltr"
                autosize
                minRows={2}
                maxRows={6}
                error={error("apple_domain_association")}
              />
              {settings.hasDomainAssociation ? (
                <Checkbox name="remove_domain_association" label={t("operator.wallets.fields.remove_association")} />
              ) : null}
              <Textarea
                name="apple_certificate"
                label={t("operator.wallets.fields.certificate")}
                description={
                  settings.certificate
                    ? t("operator.wallets.hints.certificate_kept", {
                        subject: settings.certificate.subject,
                        date: formatDateTime(settings.certificate.validTo, lang),
                      })
                    : t("operator.wallets.hints.certificate")
                }
                dir="ltr"
                autosize
                minRows={2}
                maxRows={6}
                placeholder="-----BEGIN CERTIFICATE-----"
                error={error("apple_certificate")}
              />
              <Textarea
                name="apple_key"
                label={t("operator.wallets.fields.key")}
                description={t("operator.wallets.hints.key")}
                dir="ltr"
                autosize
                minRows={2}
                maxRows={6}
                placeholder="-----BEGIN PRIVATE KEY-----"
                autoComplete="off"
                error={error("apple_key")}
              />
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <Text fw={600} component="h2" size="lg">
                {t("operator.wallets.google_pay")}
              </Text>
              <TextInput
                name="google_merchant_id"
                label={t("operator.wallets.fields.google_merchant_id")}
                description={t("operator.wallets.hints.google_merchant_id")}
                dir="ltr"
                maxLength={40}
                defaultValue={value("google_merchant_id", settings.googleMerchantId)}
                error={error("google_merchant_id")}
              />
            </Stack>
          </Card>
          <Text size="sm" c="dimmed">
            {t("operator.wallets.note")}
          </Text>
          <Group>
            <Button type="submit" loading={busy}>
              {t("operator.wallets.save")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}
