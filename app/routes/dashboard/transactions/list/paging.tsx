import { Anchor, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation, useSubmit } from "react-router";
import { withParams } from "~/domain/transactions/filters";
import { KeepParams, type ListData } from "./query-params";

/** Rows per page: 10, 50, 100 (each only when the total exceeds the size before it) and all. */
export function PerPage({ data }: { data: ListData }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const { count, perPage } = data.pagination;
  const sizes = [10, 50, 100].filter((size, index) => index === 0 || count > [10, 50, 100][index - 1]);
  const options: (number | "all")[] = [...sizes, ...(count > 10 && count <= 1000 ? (["all"] as const) : [])];
  if (options.length < 2) return null;
  return (
    <Form method="get" onChange={(event) => submit(event.currentTarget)}>
      <KeepParams raw={data.raw} except={["per_page"]} />
      <fieldset className="inline-radio">
        <legend>{t("transactions.rows_per_page")}</legend>
        {options.map((size) => (
          <label key={size}>
            <input type="radio" name="per_page" value={size} defaultChecked={perPage === size} />{" "}
            {size === "all" ? t("transactions.all_rows") : size}
          </label>
        ))}
        <noscript>
          <button type="submit">{t("transactions.show")}</button>
        </noscript>
      </fieldset>
    </Form>
  );
}

/** Up to ten page links around the current page, and arrows. */
export function Pagination({ data }: { data: ListData }) {
  const { t, i18n } = useTranslation();
  const [back, forward] = i18n.dir() === "rtl" ? ["›", "‹"] : ["‹", "›"];
  const location = useLocation();
  const { page, pageCount } = data.pagination;
  if (pageCount <= 1) return null;
  const first = Math.max(1, Math.min(page - 4, pageCount - 9));
  const pages = Array.from({ length: Math.min(10, pageCount) }, (_, index) => first + index);
  const href = (target: number) =>
    `${location.pathname}${withParams(location.search, { page: target === 1 ? null : target, done: null, operation: null, confirm: null, id: null })}`;
  return (
    <nav aria-label={t("transactions.pagination")}>
      <Group gap={4} mt="md">
        {page > 1 ? (
          <Anchor
            component={Link}
            to={href(page - 1)}
            className="page-link"
            aria-label={t("transactions.previous_page")}
          >
            {back}
          </Anchor>
        ) : null}
        {pages.map((number) => (
          <Anchor
            key={number}
            component={Link}
            to={href(number)}
            className="page-link"
            aria-current={number === page ? "page" : undefined}
            data-current={number === page || undefined}
          >
            {number}
          </Anchor>
        ))}
        {page < pageCount ? (
          <Anchor component={Link} to={href(page + 1)} className="page-link" aria-label={t("transactions.next_page")}>
            {forward}
          </Anchor>
        ) : null}
      </Group>
    </nav>
  );
}
