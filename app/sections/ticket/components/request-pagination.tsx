import { Group, Pagination, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";

/** The same view on another page: every page and arrow is a link, so it works without JavaScript. */
function pageHref(search: string, page: number) {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "?";
}

export function RequestPagination({ page, pages, count }: { page: number; pages: number; count: number }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const navigate = useNavigate();
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t("tickets.count", { total: count })}
      </Text>
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={(value) => navigate(pageHref(search, value))}
          getItemProps={(value) => ({ component: "a", href: pageHref(search, value) })}
          getControlProps={(control) => {
            const target = control === "first" ? 1 : control === "last" ? pages : control === "previous" ? Math.max(1, page - 1) : Math.min(pages, page + 1);
            return { component: "a", href: pageHref(search, target) };
          }}
        />
      ) : null}
    </Group>
  );
}
