import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/food-public.css";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/branches";
import { useText } from "~/components/pay/use-text";
import { Button, Card, SelectField } from "~/components/pay/ui";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { listAreas, listBranches, nameIn } from "../../domain/public-menu.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { languageOf, loadVisitor, unitHeader } from "./food-page.server";
import { hoursView, imageUrl } from "./food-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); choosing is a plain POST to the menu. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفروع" : "Branches" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { cart, merchantId } = await loadVisitor(db, request);
  const [unit, branches, { currency }] = await Promise.all([
    unitHeader(db, merchantId, lang),
    listBranches(db, merchantId),
    loadMerchantDefaults(db, merchantId),
  ]);
  const areas = await Promise.all(
    branches.map((branch) => (branch.offers_delivery ? listAreas(db, branch.id) : Promise.resolve([]))),
  );
  return {
    lang,
    unit,
    merchantId,
    current: { deliveryType: cart.delivery_type, branch: cart.branch, area: cart.delivery_area },
    branches: branches.map((branch, index) => ({
      id: branch.id,
      name: nameIn(branch, lang),
      addressHtml: branch.address_html,
      phone: branch.phone,
      image: imageUrl(branch.image_path),
      isOpen: branch.is_open,
      minimum: branch.min_order ? formatAmount(branch.min_order, currency, lang) : null,
      deliveryMinutes: branch.delivery_minutes,
      hours: hoursView(branch.hours, lang),
      types: (["delivery", "pickup", "catering"] as const).filter(
        (type) =>
          ({ delivery: branch.offers_delivery, pickup: branch.offers_pickup, catering: branch.offers_catering })[type],
      ),
      areas: areas[index].map((area) => ({
        value: String(area.id),
        label: `${lang === "ar" ? area.name_ar : area.name_en}${area.charge ? ` (+${formatAmount(area.charge, currency, lang)})` : ""}`,
      })),
    })),
  };
}

export default function Branches() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <div className="c-stack">
        <a className="c-link" href={`/${page.lang}/new-menu?merchant=${page.merchantId}`}>
          {t("food_public.details.back")}
        </a>
        <h1 className="c-title">{t("food_public.branches.title")}</h1>
        {page.branches.map((branch) => (
          <Card key={branch.id}>
            <div className="c-stack">
              {branch.image ? <img className="food-banner" src={branch.image} alt="" loading="lazy" /> : null}
              <h2 className="c-subtitle">
                {branch.name}{" "}
                <span className={branch.isOpen ? "food-open" : "food-closed"}>
                  {branch.isOpen ? t("food_public.branches.open") : t("food_public.branches.closed")}
                </span>
              </h2>
              {/* The branch's address is sanitised HTML (a few inline tags and line breaks), kept so by the branch editor. */}
              {branch.addressHtml ? (
                <div className="food-address c-small" dangerouslySetInnerHTML={{ __html: branch.addressHtml }} />
              ) : null}
              {branch.phone ? (
                <a className="c-link c-small" href={`tel:${branch.phone}`} dir="ltr">
                  {branch.phone}
                </a>
              ) : null}
              {branch.minimum ? (
                <p className="c-small">{t("food_public.branches.minimum", { amount: branch.minimum })}</p>
              ) : null}
              {branch.deliveryMinutes ? (
                <p className="c-small">
                  {t("food_public.branches.delivery_time", { minutes: branch.deliveryMinutes })}
                </p>
              ) : null}
              <p className="c-small c-strong">{t("food_public.branches.hours")}</p>
              <ul className="food-hours">
                {branch.hours.map((day) => (
                  <li key={day.day}>
                    {day.day}: <span dir="ltr">{day.intervals}</span>
                  </li>
                ))}
              </ul>
              <form method="post" action={`/${page.lang}/new-menu?merchant=${page.merchantId}`} className="c-stack">
                <input type="hidden" name="intent" value="location" />
                <input type="hidden" name="branch" value={branch.id} />
                <SelectField
                  name="delivery_type"
                  label={t("food_public.menu.delivery_type")}
                  options={branch.types.map((type) => ({
                    value: type,
                    label: t(`food_public.delivery_types.${type}`),
                  }))}
                  defaultValue={
                    branch.types.includes(page.current.deliveryType) ? page.current.deliveryType : branch.types[0]
                  }
                  id={`delivery-type-${branch.id}`}
                />
                {branch.areas.length ? (
                  <SelectField
                    name="delivery_area"
                    label={t("food_public.branches.area_for_delivery")}
                    options={[{ value: "", label: t("food_public.menu.choose_area") }, ...branch.areas]}
                    defaultValue={
                      page.current.branch === branch.id && page.current.area ? String(page.current.area) : ""
                    }
                    id={`delivery-area-${branch.id}`}
                  />
                ) : null}
                <Button type="submit" variant={page.current.branch === branch.id ? "light" : "filled"}>
                  {t("food_public.branches.choose")}
                </Button>
              </form>
            </div>
          </Card>
        ))}
      </div>
    </CustomerLayout>
  );
}
