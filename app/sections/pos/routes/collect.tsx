import {
  Alert,
  Anchor,
  Button,
  Card,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/collect";
import { publicId } from "~/lib/ids.server";
import { collectorPayment } from "~/sections/services.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { NO_STORE, posTitle } from "../components/page";
import { fieldMessages } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";
import "../components/pos.css";

export function meta({ data: page, matches }: Route.MetaArgs) {
  return page ? posTitle(matches, "collect", { title: page.collector.title }) : posTitle(matches, "section");
}

export function headers() {
  return NO_STORE;
}

const STANDARD = [
  "amount",
  "currency_code",
  "gateway_code",
  "customer_name",
  "customer_email",
  "customer_phone",
  "reference",
] as const;

async function loadCollector(
  context: Route.LoaderArgs["context"],
  request: Request,
  params: Route.LoaderArgs["params"],
) {
  const auth = await requireCounter(context, request, "add");
  const lang = languageOf(params);
  const hook = collectorPayment();
  const collector = hook
    ? await hook.form(getDbFrom(context), { merchantId: auth.user.merchantId, collectorId: params.collectorId, lang })
    : null;
  if (!hook || !collector) notFound();
  return { auth, lang, hook, collector };
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { lang, collector } = await loadCollector(context, request, params);
  // A new one each time the form is shown: sent twice, one payment (the collector's own rule).
  return { lang, collector, submissionToken: publicId() };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, hook, collector } = await loadCollector(context, request, params);
  const form = await readFormData(request);
  const values: Record<string, string> = {};
  for (const name of STANDARD) values[name] = String(form.get(name) ?? "").slice(0, 600);
  for (const field of collector.fields)
    if (field.kind === "text") values[field.name] = String(form.get(field.name) ?? "").slice(0, 600);
  const submissionToken = String(form.get("submission_token") ?? "").slice(0, 100);
  const made = await hook.make(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: { id: auth.user.id, username: auth.user.username },
    collectorId: collector.publicId,
    fields: { ...values, submission_token: submissionToken },
    lang,
    source: "pos",
  });
  if (made.ok) return redirect(`/${lang}/pos/pay/${made.transactionId}`, 303);
  if (made.closed) return redirect(`/${lang}/pos/pay/collect/${collector.publicId}`, 303);
  const known = new Set<string>([...STANDARD, ...collector.fields.map((field) => field.name)]);
  const errors: Record<string, string[]> = {};
  for (const [field, codes] of Object.entries(made.errors))
    (errors[known.has(field) ? field : "non_field_errors"] ??= []).push(...codes);
  return data({ values, errors: fieldMessages(errors, made.params, lang), submissionToken }, { status: 400 });
}

export default function PosCollect() {
  const { t } = useTranslation();
  const { lang, collector, submissionToken } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = answer?.errors ?? {};
  const value = (name: string, fallback = "") => answer?.values?.[name] ?? fallback;
  const describedError = (name: string) => (errors[name] ? { error: errors[name] } : {});
  const chosenGateway = value("gateway_code", collector.gateways[0]?.code ?? "");
  return (
    <Stack className="pos-page" gap="md">
      <div>
        <Anchor component={Link} to={`/${lang}/pos/pay`} size="sm">
          {t("pos.back_to_new")}
        </Anchor>
        <Title order={1} fz="h2" dir="auto">
          {collector.title}
        </Title>
        <Text c="dimmed" size="sm">
          {t("pos.collector_help")}
        </Text>
      </div>
      {!collector.accepting ? (
        <Alert color="orange" role="status">
          {t("pos.collector_closed")}
        </Alert>
      ) : (
        <Card withBorder padding="lg">
          <Form method="post">
            <input type="hidden" name="submission_token" value={answer?.submissionToken ?? submissionToken} />
            <Stack gap="md">
              {errors.non_field_errors ? (
                <Alert color="red" role="alert">
                  {errors.non_field_errors}
                </Alert>
              ) : null}
              <div className="pos-amount">
                <TextInput
                  name="amount"
                  label={t("pos.amount")}
                  aria-describedby="pos-collect-range"
                  inputMode="decimal"
                  autoComplete="off"
                  required
                  maxLength={20}
                  size="lg"
                  placeholder="0.000"
                  defaultValue={value("amount")}
                  dir="ltr"
                  {...describedError("amount")}
                />
                {collector.currencies.length > 1 ? (
                  <NativeSelect
                    name="currency_code"
                    label={t("pos.currency")}
                    size="lg"
                    data={collector.currencies}
                    defaultValue={value("currency_code", collector.defaultCurrency)}
                    {...describedError("currency_code")}
                  />
                ) : (
                  <>
                    <input type="hidden" name="currency_code" value={collector.defaultCurrency} />
                    <TextInput
                      label={t("pos.currency")}
                      size="lg"
                      value={collector.defaultCurrency}
                      readOnly
                      tabIndex={-1}
                      {...describedError("currency_code")}
                    />
                  </>
                )}
              </div>
              <Text id="pos-collect-range" size="sm" c="dimmed" mt={-8}>
                {collector.ranges.map((range) => [range.text, range.cap].filter(Boolean).join(" · ")).join(" — ")}
              </Text>
              {collector.fields.length ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {collector.fields.map((field) =>
                    field.kind === "text" ? (
                      <Textarea
                        key={field.name}
                        name={field.name}
                        label={field.label}
                        required={field.required}
                        maxLength={500}
                        autosize
                        minRows={1}
                        maxRows={4}
                        defaultValue={value(field.name)}
                        dir="auto"
                        {...describedError(field.name)}
                      />
                    ) : (
                      <TextInput
                        key={field.name}
                        name={field.name}
                        label={field.label}
                        required={field.required}
                        defaultValue={value(field.name)}
                        autoComplete="off"
                        {...(field.kind === "email"
                          ? { type: "email", inputMode: "email" as const, maxLength: 254, dir: "ltr" }
                          : field.kind === "phone"
                            ? { type: "tel", inputMode: "tel" as const, maxLength: 30, dir: "ltr" }
                            : { maxLength: 100, dir: "auto" })}
                        {...describedError(field.name)}
                      />
                    ),
                  )}
                </SimpleGrid>
              ) : null}
              <Radio.Group
                name="gateway_code"
                label={t("pos.gateway")}
                defaultValue={chosenGateway}
                {...describedError("gateway_code")}
              >
                <Stack gap="xs" mt={6}>
                  {collector.gateways.map((gateway) => (
                    <Radio key={gateway.code} value={gateway.code} label={gateway.name} />
                  ))}
                </Stack>
              </Radio.Group>
              <Button type="submit" size="lg" loading={busy} fullWidth>
                {t("pos.create")}
              </Button>
            </Stack>
          </Form>
        </Card>
      )}
    </Stack>
  );
}
