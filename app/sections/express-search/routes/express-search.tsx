import { Anchor, Button, Group, Stack, Table, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/express-search";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { expressSearch } from "../search.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  const available = await requireSection(context, auth, "express_search");
  requirePermission(auth, "view_paymenttransaction");
  // A search across every section is still a search: the same right as the lists' search box.
  requirePermission(auth, "search_paymenttransaction");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  const found = q
    ? await expressSearch(getDbFrom(context), { merchantId: auth.user.merchantId, q, lang, available })
    : null;
  // More matches than shown: the all-transactions list searches them all.
  const allUrl = found && found.total > found.rows.length ? `/${lang}/transactions?q=${encodeURIComponent(q)}` : null;
  return { q, found, allUrl };
}

export default function ExpressSearch() {
  const { t } = useTranslation();
  const { q, found, allUrl } = useLoaderData<typeof loader>();
  const results = found?.rows ?? null;
  return (
    <Stack>
      <PageHeader title={t("express_search.title")} description={t("express_search.description")} />
      <Form method="get" role="search">
        <Group align="flex-end">
          <TextInput
            type="search"
            name="q"
            label={t("express_search.label")}
            defaultValue={q}
            maxLength={100}
            w={{ base: "100%", sm: 380 }}
            autoFocus
          />
          <Button type="submit">{t("express_search.submit")}</Button>
        </Group>
      </Form>
      {results === null ? null : results.length === 0 ? (
        <Text c="dimmed" role="status">
          {t("express_search.none", { q })}
        </Text>
      ) : (
        <Stack gap="xs">
          {found && allUrl ? (
            <Text size="sm" role="status">
              {t("transactions.express_more", { shown: results.length, total: found.total })}{" "}
              <Anchor component={Link} to={allUrl}>
                {t("transactions.express_see_all")}
              </Anchor>
            </Text>
          ) : null}
          <Table.ScrollContainer type="native" minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("fields.order_no")}</Table.Th>
                  <Table.Th>{t("express_search.section")}</Table.Th>
                  <Table.Th>{t("fields.customer_email")}</Table.Th>
                  <Table.Th>{t("fields.customer_phone")}</Table.Th>
                  <Table.Th>{t("fields.amount")}</Table.Th>
                  <Table.Th>{t("fields.state")}</Table.Th>
                  <Table.Th>{t("fields.created")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Anchor component={Link} to={row.url}>
                        #{row.orderNo}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`sections.${row.plugin}`)}</Table.Td>
                    <Table.Td>{row.email}</Table.Td>
                    <Table.Td dir="ltr">{row.phone}</Table.Td>
                    <Table.Td dir="ltr">{row.amount}</Table.Td>
                    <Table.Td>
                      <StateBadge state={row.state} />
                    </Table.Td>
                    <Table.Td>{row.created}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Stack>
  );
}
