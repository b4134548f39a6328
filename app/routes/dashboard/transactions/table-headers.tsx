import { Alert, Anchor, Button, Checkbox, Group, NumberInput, Stack, Table, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/table-headers";
import { PageHeader } from "~/components/page-header";
import { loadTableFields, saveTableFields } from "~/domain/transactions/fields.server";
import { translator } from "~/lib/i18n.server";
import { defaultFieldLabels, presentTableFields } from "~/presentation/transactions.server";
import { sectionFieldNames, transactionExtensions } from "~/sections/registry.server";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { headerPermissionOf, placeOf } from "./context.server";
import { readFormData } from "~/web/form-data.server";

/** Signs in and checks the section, its list and the user's right to change its columns. */
async function requireHeaders(args: Route.LoaderArgs | Route.ActionArgs) {
  const auth = requireUser(args.context, args.request);
  const place = placeOf(args);
  if (!place.section) notFound();
  await requireSection(args.context, auth, place.section.key, "transactions");
  requirePermission(auth, headerPermissionOf(place)!);
  return { auth, section: place.section, lang: place.lang };
}

export async function loader(args: Route.LoaderArgs) {
  const { auth, section, lang } = await requireHeaders(args);
  const extensions = transactionExtensions(section.key);
  const fields = presentTableFields(
    await loadTableFields(getDbFrom(args.context), auth.user.merchantId, section.key, sectionFieldNames(section.key)),
    extensions,
  );
  return {
    sectionKey: section.key,
    listPath: `/${lang}/${section.path}/transactions`,
    fields: fields.map((field) => {
      const own = extensions?.fields?.find((candidate) => candidate.name === field.name);
      const defaults = defaultFieldLabels(field.name, own?.label);
      return { ...field, title: lang === "ar" ? defaults.label_ar : defaults.label_en };
    }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { context, request } = args;
  const { auth, section, lang } = await requireHeaders(args);
  const t = translator(lang);
  const form = await readFormData(request);
  const names = form.getAll("name").map(String);
  const choices = names.map((name) => ({
    name,
    label_en: String(form.get(`label_en.${name}`) ?? ""),
    label_ar: String(form.get(`label_ar.${name}`) ?? ""),
    is_active: form.get(`active.${name}`) === "on",
    order: Number(form.get(`order.${name}`) ?? 0),
  }));
  if (!choices.some((choice) => choice.is_active))
    return data({ error: t("table_headers.none_active") }, { status: 400 });
  const db = getDbFrom(context);
  const saved = await saveTableFields(
    db,
    auth.user.merchantId,
    section.key,
    choices,
    { id: auth.user.id, username: auth.user.username },
    sectionFieldNames(section.key),
  );
  if (!saved.ok) return data({ error: t("table_headers.unknown") }, { status: 400 });
  return { done: t("table_headers.saved") };
}

export default function TableHeaders() {
  const { t } = useTranslation();
  const { fields, listPath, sectionKey } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Stack>
      <PageHeader
        title={t("table_headers.title", { section: t(`sections.${sectionKey}`) })}
        description={t("table_headers.description")}
      >
        <Anchor component={Link} to={listPath}>
          {t("table_headers.back")}
        </Anchor>
      </PageHeader>
      {result && "done" in result ? (
        <Alert color="green" role="status">
          {result.done}
        </Alert>
      ) : null}
      {result && "error" in result ? (
        <Alert color="red" role="alert">
          {result.error}
        </Alert>
      ) : null}
      <Form method="post">
        <Table.ScrollContainer type="native" minWidth={640}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("table_headers.show")}</Table.Th>
                <Table.Th>{t("table_headers.field")}</Table.Th>
                <Table.Th>{t("table_headers.label_en")}</Table.Th>
                <Table.Th>{t("table_headers.label_ar")}</Table.Th>
                <Table.Th w={110}>{t("table_headers.order")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((field) => (
                <Table.Tr key={field.name}>
                  <Table.Td>
                    <input type="hidden" name="name" value={field.name} />
                    <Checkbox
                      name={`active.${field.name}`}
                      defaultChecked={field.is_active}
                      aria-label={t("table_headers.show_field", { field: field.title })}
                    />
                  </Table.Td>
                  <Table.Td>{field.title}</Table.Td>
                  <Table.Td>
                    <TextInput
                      name={`label_en.${field.name}`}
                      defaultValue={field.label_en}
                      maxLength={64}
                      aria-label={`${t("table_headers.label_en")}: ${field.title}`}
                      dir="ltr"
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      name={`label_ar.${field.name}`}
                      defaultValue={field.label_ar}
                      maxLength={64}
                      aria-label={`${t("table_headers.label_ar")}: ${field.title}`}
                      dir="rtl"
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      name={`order.${field.name}`}
                      defaultValue={field.order}
                      min={1}
                      max={99}
                      aria-label={`${t("table_headers.order")}: ${field.title}`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group mt="md">
          <Button type="submit">{t("table_headers.save")}</Button>
        </Group>
      </Form>
    </Stack>
  );
}
