import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/food-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/food-details";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, TextAreaField, TextField } from "~/components/pay/ui";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { formatAmount } from "~/lib/money";
import { readFormData } from "~/web/form-data.server";
import { getDbFrom } from "~/web/request-context.server";
import { addLine, checkNewLine, emptyCart } from "../../domain/cart.server";
import { findItem, nameIn } from "../../domain/public-menu.server";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { fieldMessages, languageOf, loadVisitor, positiveId, storeCart, unitHeader } from "./food-page.server";
import { imageUrl } from "./food-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); Add to cart is a plain POST. */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.item.name ?? "Menu" }];
}

async function requireItem(db: Parameters<typeof findItem>[0], params: Route.LoaderArgs["params"]) {
  const id = positiveId(params.id);
  const item = id === undefined ? undefined : await findItem(db, id);
  if (!item || String(item.category_id) !== params.categoryId) throw data(null, { status: 404 });
  return item;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const item = await requireItem(db, params);
  const [unit, { currency }] = await Promise.all([
    unitHeader(db, item.merchant_id, lang),
    loadMerchantDefaults(db, item.merchant_id),
  ]);
  const money = (minor: number) => formatAmount(minor, currency, lang);
  const extra = (minor: number) => (minor ? `+ ${money(minor)}` : "");
  return {
    lang,
    unit,
    merchantId: item.merchant_id,
    item: {
      id: item.id,
      categoryId: item.category_id,
      name: nameIn(item, lang),
      description: lang === "ar" ? item.description_ar : item.description_en,
      image: imageUrl(item.image_path),
      price: money(item.unit_price),
      original: item.discounted_price !== null && item.discounted_price < item.price ? money(item.price) : null,
      soldOut: item.sold_out,
      left: item.quantity,
      sizes: item.sizes.map((size) => ({ id: size.id, name: nameIn(size, lang), price: money(size.price) })),
      addOns: item.add_ons.map((addOn) => ({ id: addOn.id, name: nameIn(addOn, lang), price: extra(addOn.price) })),
      groups: item.groups.map((group) => ({
        id: group.id,
        name: nameIn(group, lang),
        min: group.min_choices,
        max: group.max_choices,
        choices: group.choices.map((choice) => ({
          id: choice.id,
          name: nameIn(choice, lang),
          price: extra(choice.price),
        })),
      })),
    },
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const item = await requireItem(db, params);
  const form = await readFormData(request);
  const options: Record<string, number[]> = {};
  for (const group of item.groups) {
    const chosen = form.getAll(`option.${group.id}`).map(String).filter(Boolean);
    if (chosen.length) options[String(group.id)] = chosen.map(Number);
  }
  const values = {
    size: String(form.get("size") ?? ""),
    add_ons: form.getAll("add_ons").map(String),
    options: Object.fromEntries(Object.entries(options).map(([group, ids]) => [group, ids.map(String)])),
    quantity: String(form.get("quantity") ?? "1"),
    special_instructions: String(form.get("special_instructions") ?? "").slice(0, 2000),
  };
  const checked = await checkNewLine(db, item.merchant_id, {
    menu_item: item.id,
    category_id: item.category_id,
    quantity: values.quantity,
    size: values.size,
    add_ons: values.add_ons,
    options: Object.fromEntries(
      Object.entries(options).map(([group, ids]) => [
        group,
        item.groups.find((one) => String(one.id) === group)!.max_choices > 1 ? ids : ids[0],
      ]),
    ),
    special_instructions: values.special_instructions,
  });
  if (!checked.ok)
    return data({ errors: fieldMessages(checked.errors, { left: item.quantity ?? 0 }, lang), values }, { status: 400 });
  const visitor = await loadVisitor(db, request);
  const cart = visitor.cart.merchant_id === item.merchant_id ? visitor.cart : emptyCart(item.merchant_id);
  const headers = await storeCart(visitor, request, addLine(cart, checked.line));
  return redirect(`/${lang}/new-menu?merchant=${item.merchant_id}`, { status: 303, headers });
}

export default function FoodDetails() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const { item } = page;
  const errors: Record<string, string> = answer?.errors ?? {};
  const values = answer?.values;
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <div className="c-stack">
        <a className="c-link" href={`/${page.lang}/new-menu?merchant=${page.merchantId}`}>
          {t("food_public.details.back")}
        </a>
        {item.image ? <img className="food-banner" src={item.image} alt="" /> : null}
        <h1 className="c-title">{item.name}</h1>
        {item.description ? <p className="c-dimmed">{item.description}</p> : null}
        <p className="food-price">
          {item.price}
          {item.original ? <del>{item.original}</del> : null}
        </p>
        {item.soldOut ? <Alert color="orange">{t("food_public.sold_out")}</Alert> : null}
        <Card>
          <form method="post" action={location.pathname + location.search} className="c-stack">
            {item.sizes.length ? (
              <fieldset className="c-choices">
                <legend>{t("food_public.details.size")}</legend>
                {item.sizes.map((size, index) => (
                  <label key={size.id} className="c-choice">
                    <input
                      type="radio"
                      name="size"
                      value={size.id}
                      required
                      defaultChecked={values ? values.size === String(size.id) : index === 0}
                    />
                    {size.name}
                    <span className="food-choice__price">{size.price}</span>
                  </label>
                ))}
                {errors.size ? <p className="c-field__error">{errors.size}</p> : null}
              </fieldset>
            ) : null}
            {item.addOns.length ? (
              <fieldset className="c-choices">
                <legend>{t("food_public.details.add_ons")}</legend>
                {item.addOns.map((addOn) => (
                  <label key={addOn.id} className="c-choice">
                    <input
                      type="checkbox"
                      name="add_ons"
                      value={addOn.id}
                      defaultChecked={values?.add_ons.includes(String(addOn.id))}
                    />
                    {addOn.name}
                    <span className="food-choice__price">{addOn.price}</span>
                  </label>
                ))}
                {errors.add_ons ? <p className="c-field__error">{errors.add_ons}</p> : null}
              </fieldset>
            ) : null}
            {item.groups.map((group) => (
              <fieldset key={group.id} className="c-choices">
                <legend>
                  {group.name}{" "}
                  <span className="c-small c-dimmed">
                    {group.max > 1
                      ? t("food_public.details.choose_between", { min: group.min, max: group.max })
                      : group.min > 0
                        ? t("food_public.details.choose_one")
                        : t("food_public.details.optional")}
                  </span>
                </legend>
                {group.choices.map((choice) => (
                  <label key={choice.id} className="c-choice">
                    <input
                      type={group.max > 1 ? "checkbox" : "radio"}
                      name={`option.${group.id}`}
                      value={choice.id}
                      required={group.max <= 1 && group.min > 0}
                      defaultChecked={values?.options[String(group.id)]?.includes(String(choice.id))}
                    />
                    {choice.name}
                    <span className="food-choice__price">{choice.price}</span>
                  </label>
                ))}
              </fieldset>
            ))}
            {errors.options ? <p className="c-field__error">{errors.options}</p> : null}
            <TextAreaField
              name="special_instructions"
              label={t("food_public.details.special_instructions")}
              maxLength={256}
              rows={2}
              defaultValue={values?.special_instructions ?? ""}
              error={errors.special_instructions}
              dir="auto"
            />
            <TextField
              name="quantity"
              label={t("food_public.details.quantity")}
              type="number"
              inputMode="numeric"
              min={1}
              max={item.left ?? 999}
              required
              defaultValue={values?.quantity ?? "1"}
              error={errors.quantity}
            />
            {errors.menu_item ? <p className="c-field__error">{errors.menu_item}</p> : null}
            <Button type="submit" fullWidth disabled={item.soldOut}>
              {item.soldOut ? t("food_public.sold_out") : t("food_public.details.add_to_cart")}
            </Button>
          </form>
        </Card>
      </div>
    </CustomerLayout>
  );
}
