import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/food-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/menu";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, LinkButton, SelectField } from "~/components/pay/ui";
import { readFormData } from "~/web/form-data.server";
import { getDbFrom } from "~/web/request-context.server";
import { locationFrom, menuPageView, type MenuPageData } from "./menu-view.server";
import { changeLocation, checkLocation } from "../../domain/cart.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { fieldMessages, languageOf, loadVisitor, storeCart } from "./food-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); every change is a plain POST. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "القائمة" : "Menu" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  return menuPageView(getDbFrom(context), request, languageOf(params));
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const visitor = await loadVisitor(db, request);
  const form = await readFormData(request);
  const next = locationFrom(form);
  const back = `/${lang}/new-menu?merchant=${visitor.merchantId}`;
  if (!next)
    return data(
      { errors: fieldMessages({ delivery_type: ["food.errors.delivery_type"] }, undefined, lang) },
      { status: 400 },
    );
  const errors = await checkLocation(db, visitor.merchantId, next);
  if (Object.keys(errors).length) return data({ errors: fieldMessages(errors, undefined, lang) }, { status: 400 });
  const changed = changeLocation(visitor.cart, next, form.get("intent") === "confirm_clear");
  if (changed.kind === "confirm") {
    const query = new URLSearchParams({
      merchant: String(visitor.merchantId),
      confirm: "1",
      delivery_type: next.delivery_type,
      branch: String(next.branch ?? ""),
      delivery_area: String(next.delivery_area ?? ""),
    });
    return redirect(`/${lang}/new-menu?${query}`, 303);
  }
  const headers = await storeCart(visitor, request, changed.cart);
  return redirect(back, { status: 303, headers });
}

export default function Menu() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  return <MenuPage page={page} answer={answer} path={location.pathname + location.search} />;
}

/** The menu page itself, from its view's data: rendered by the route and by its direct handler. */
export function MenuPage({
  page,
  answer,
  path,
}: {
  page: MenuPageData;
  answer?: { errors?: Record<string, string> };
  path: string;
}) {
  const t = useText();
  const q = `?merchant=${page.merchantId}`;
  const errors: Record<string, string> = answer?.errors ?? {};
  if (page.pending) {
    return (
      <CustomerLayout unit={page.unit} lang={page.lang} path={path} narrow>
        <Card>
          <form method="post" action={`/${page.lang}/new-menu${q}`} className="c-stack">
            <h1 className="c-title">{t("food_public.clear.title")}</h1>
            <p>{t("food_public.clear.message")}</p>
            <input type="hidden" name="intent" value="confirm_clear" />
            <input type="hidden" name="delivery_type" value={page.pending.deliveryType} />
            <input type="hidden" name="branch" value={page.pending.branch ?? ""} />
            <input type="hidden" name="delivery_area" value={page.pending.area ?? ""} />
            <div className="c-row">
              <Button type="submit">{t("food_public.clear.yes")}</Button>
              <LinkButton variant="default" href={`/${page.lang}/new-menu${q}`}>
                {t("food_public.clear.no")}
              </LinkButton>
            </div>
          </form>
        </Card>
      </CustomerLayout>
    );
  }
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={path}>
      <div className="c-stack">
        <h1 className="c-title">{page.title ?? t("food_public.menu.title")}</h1>
        {page.banners.map((banner) =>
          banner.link ? (
            <a key={banner.image} href={banner.link} target="_blank" rel="noopener noreferrer">
              <img className="food-banner" src={banner.image} alt="" />
            </a>
          ) : (
            <img key={banner.image} className="food-banner" src={banner.image} alt="" />
          ),
        )}
        <Card>
          <form method="post" action={`/${page.lang}/new-menu${q}`} className="c-stack">
            <input type="hidden" name="intent" value="location" />
            <fieldset className="c-choices">
              <legend>{t("food_public.menu.delivery_type")}</legend>
              <div className="food-tabs">
                {(["delivery", "pickup", "catering"] as const).map((type) => (
                  <label key={type} className="c-choice">
                    <input
                      type="radio"
                      name="delivery_type"
                      value={type}
                      defaultChecked={page.location.deliveryType === type}
                    />
                    {t(`food_public.delivery_types.${type}`)}
                  </label>
                ))}
              </div>
              {errors.delivery_type ? <p className="c-field__error">{errors.delivery_type}</p> : null}
            </fieldset>
            <SelectField
              name="branch"
              label={t("food_public.menu.branch")}
              options={[{ value: "", label: t("food_public.menu.choose_branch") }, ...page.branches]}
              defaultValue={page.location.branch ?? ""}
              error={errors.branch}
            />
            {page.areas.length ? (
              <SelectField
                name="delivery_area"
                label={t("food_public.menu.area")}
                options={[{ value: "", label: t("food_public.menu.choose_area") }, ...page.areas]}
                defaultValue={page.location.area ?? ""}
                error={errors.delivery_area}
              />
            ) : (
              <input type="hidden" name="delivery_area" value={page.location.area ?? ""} />
            )}
            <div className="c-row">
              <Button type="submit" variant="light">
                {t("food_public.menu.apply")}
              </Button>
              <a className="c-link" href={`/${page.lang}/new-menu/branches${q}`}>
                {t("food_public.menu.see_branches")}
              </a>
            </div>
          </form>
        </Card>
        {page.categories.length > 1 ? (
          <nav className="food-tabs" aria-label={t("food_public.menu.categories")}>
            {page.categories.map((category) => (
              <a
                key={category.id}
                className="c-button c-button--default c-button--xs"
                href={`#category-${category.id}`}
              >
                {category.name}
              </a>
            ))}
          </nav>
        ) : null}
        {page.promoted.length ? (
          <section className="c-stack">
            <h2 className="c-subtitle">{t("food_public.menu.promoted")}</h2>
            <ItemGrid items={page.promoted} lang={page.lang} q={q} />
          </section>
        ) : null}
        {page.categories.length === 0 ? <Alert color="orange">{t("food_public.menu.empty")}</Alert> : null}
        {page.categories.map((category) => (
          <section key={category.id} id={`category-${category.id}`} className="c-stack">
            <h2 className="c-subtitle">
              {category.name}
              {category.isCatering ? ` · ${t("food_public.delivery_types.catering")}` : ""}
            </h2>
            <ItemGrid items={category.items} lang={page.lang} q={q} />
          </section>
        ))}
      </div>
      <div className="food-cart-bar">
        <span>
          {t("food_public.menu.cart_summary", { items: page.cart.count })} · <strong>{page.cart.total}</strong>
        </span>
        <LinkButton href={`/${page.lang}/new-menu/checkout${q}`}>{t("food_public.menu.checkout")}</LinkButton>
      </div>
    </CustomerLayout>
  );
}

type ItemView = {
  id: number;
  categoryId: number;
  name: string;
  description: string;
  image: string | null;
  price: string;
  fromPrice: boolean;
  original: string | null;
  soldOut: boolean;
};

function ItemGrid({ items, lang, q }: { items: ItemView[]; lang: string; q: string }) {
  const t = useText();
  return (
    <div className="food-grid">
      {items.map((item) => (
        <a
          key={item.id}
          className="c-card food-item"
          href={`/${lang}/new-menu/category/${item.categoryId}/food-details/${item.id}${q}`}
        >
          {item.image ? <img className="food-item__image" src={item.image} alt="" loading="lazy" /> : null}
          <span className="food-item__body">
            <span className="c-strong">{item.name}</span>
            {item.description ? <span className="c-small c-dimmed">{item.description}</span> : null}
            <span className="food-price">
              {item.fromPrice ? t("food_public.menu.from_price", { price: item.price }) : item.price}
              {item.original ? <del>{item.original}</del> : null}
            </span>
            {item.soldOut ? <span className="food-sold-out">{t("food_public.sold_out")}</span> : null}
          </span>
        </a>
      ))}
    </div>
  );
}
