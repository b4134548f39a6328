import "./general-info/statistics.css";
import { Alert, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData, useParams } from "react-router";
import type { Route } from "./+types/general-info";
import { PageHeader } from "~/components/page-header";
import { usePageTexts } from "~/lib/page-texts";
import { AverageSizeCard, ChartsGrid } from "./general-info/charts";
import { homeAction, loadHome, type HomeNotice } from "./general-info/home.server";
import { PeriodBar } from "./general-info/period-bar";
import { RecentActions, RecentOrders } from "./general-info/recent";
import { StatisticTiles, TrendTable } from "./general-info/tiles";

export const loader = (args: Route.LoaderArgs) => loadHome(args);
export const action = (args: Route.ActionArgs) => homeAction(args);

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الرئيسية" : "Dashboard" }];
}

/** Without JavaScript the charts' tables show under them as well, so that every figure reads without hovering. */
const NO_SCRIPT_STYLE =
  ".chart-table{position:static!important;width:auto!important;height:auto!important;overflow:visible!important;clip:auto!important;white-space:normal!important}";

export default function GeneralInfo() {
  const data = useLoaderData<typeof loader>();
  usePageTexts(data.lang, data.texts, "statistics.title");
  const { t } = useTranslation();
  const notice = useActionData<typeof action>() as HomeNotice | undefined;
  const { lang = "en" } = useParams();
  return (
    <Stack gap="lg">
      <noscript>
        <style>{NO_SCRIPT_STYLE}</style>
      </noscript>
      <PageHeader
        title={t("home.title", { username: data.username })}
        description={t(data.canStatistics ? "statistics.subtitle" : "home.subtitle")}
      />
      {notice ? (
        <Alert color={notice.color} role={notice.color === "red" ? "alert" : "status"} variant="light">
          {notice.message}
        </Alert>
      ) : null}
      {data.canStatistics ? (
        <>
          <PeriodBar data={data} />
          {data.statistics ? (
            <>
              <StatisticTiles statistics={data.statistics} />
              <TrendTable statistics={data.statistics} />
              <ChartsGrid data={data} statistics={data.statistics} />
            </>
          ) : data.average ? (
            <AverageSizeCard data={data} />
          ) : null}
        </>
      ) : null}
      {data.canOrders ? <RecentOrders orders={data.recentOrders} lang={lang} /> : null}
      <RecentActions actions={data.recentActions} />
    </Stack>
  );
}
