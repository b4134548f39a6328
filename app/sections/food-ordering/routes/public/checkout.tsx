import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/food-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/checkout";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, LinkButton, SelectField, TextAreaField, TextField } from "~/components/pay/ui";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { readFormData } from "~/web/form-data.server";
import { platformAddresses } from "~/web/addresses.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { describe } from "~/presentation/texts.server";
import { addressRules, afterOrder, cartSummary, checkoutLines, setLineQuantity } from "../../domain/cart.server";
import { CheckoutSchema } from "../../domain/checkout-schema";
import { placeOrder } from "../../domain/checkout.server";
import { acceptedGateways, findArea, findPublicBranch, nameIn } from "../../domain/public-menu.server";
import { CartLine, LineQuantityForms, OfferCodeField, PaymentChoices } from "~/components/customer/cart";
import { CustomerLayout } from "~/components/customer/customer-layout";
import { Totals } from "../../components/public/food-totals";
import { issuesAsErrors, splitCheckoutErrors } from "./checkout-page.server";
import { languageOf, loadVisitor, storeCart, unitHeader } from "./food-page.server";
import { formatAmount } from "~/lib/money";
import { pricedLineView, totalsView } from "./food-view.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); every change and the order itself are plain POSTs. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إتمام الطلب" : "Checkout" }, { name: "robots", content: "noindex" }];
}

const ADDRESS_NAMES = ["Home", "Work", "Chalet", "Farm", "Custom"] as const;
const ADDRESS_FIELDS = [
  "address",
  "custom_address",
  "area",
  "block",
  "street",
  "avenue",
  "house_no",
  "floor",
  "office_no",
  "paci_no",
  "special_instructions",
] as const;
const CUSTOMER_FIELDS = [
  "customer_name",
  "customer_phone",
  "customer_email",
  "scheduled_for",
  "gateway_code",
  "voucher",
] as const;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { cart, merchantId } = await loadVisitor(db, request);
  const [unit, summary, { currency, gateways }] = await Promise.all([
    unitHeader(db, merchantId, lang),
    cartSummary(db, cart),
    acceptedGateways(db, merchantId, lang),
  ]);
  const branch = cart.branch !== null ? await findPublicBranch(db, cart.branch, merchantId) : undefined;
  const area =
    branch && cart.delivery_type === "delivery" && cart.delivery_area !== null
      ? await findArea(db, branch.id, cart.delivery_area)
      : undefined;
  const money = (minor: number) => formatAmount(minor, currency, lang);
  return {
    lang,
    unit,
    merchantId,
    deliveryType: cart.delivery_type,
    branch: branch ? nameIn(branch, lang) : null,
    area: area ? kuwaitAreaIn(area.area, lang) : null,
    lines: summary.lines.map((line, index) => ({
      index,
      view: line ? pricedLineView(line, currency, lang) : null,
      error: summary.lineErrors[index] ? describe(summary.lineErrors[index], undefined, lang) : null,
      quantity: cart.lines[index].quantity,
    })),
    totals: totalsView(summary, currency, lang),
    minimum: summary.minimum && summary.subtotal < summary.minimum ? money(summary.minimum) : null,
    voucher: cart.voucher,
    voucherError: summary.voucherError
      ? describe(
          summary.voucherError.code,
          summary.voucherError.params?.minimum !== undefined
            ? { minimum: money(Number(summary.voucherError.params.minimum)) }
            : summary.voucherError.params,
          lang,
        )
      : null,
    gateways: gateways.map((gateway) => ({ code: gateway.code, name: gateway.name, logoUrl: gateway.logo_url })),
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const visitor = await loadVisitor(db, request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const here = `/${lang}/new-menu/checkout?merchant=${visitor.merchantId}`;
  if (intent === "quantity" || intent === "remove") {
    const index = Number(form.get("line"));
    const quantity = intent === "remove" ? 0 : Number(form.get("quantity"));
    if (!Number.isInteger(index) || !Number.isInteger(quantity) || quantity < 0 || quantity > 999)
      return redirect(here, 303);
    const headers = await storeCart(visitor, request, setLineQuantity(visitor.cart, index, quantity));
    return redirect(here, { status: 303, headers });
  }
  const values: Record<string, string> = {};
  for (const field of CUSTOMER_FIELDS) values[field] = String(form.get(field) ?? "").slice(0, 300);
  for (const field of ADDRESS_FIELDS)
    values[`address.${field}`] = String(form.get(`address.${field}`) ?? "").slice(0, 300);
  if (intent === "voucher") {
    await storeCart(visitor, request, { ...visitor.cart, voucher: values.voucher.trim().slice(0, 40) || null });
    return data({ values, fields: {} as Record<string, string>, lines: {} as Record<number, string> });
  }
  const cart = { ...visitor.cart, voucher: values.voucher.trim().slice(0, 40) || null };
  const address = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, values[`address.${field}`]]));
  const parsed = CheckoutSchema.safeParse({
    delivery_type: cart.delivery_type,
    branch: cart.branch ?? "",
    delivery_area: cart.delivery_area,
    scheduled_for: values.scheduled_for,
    voucher: cart.voucher ?? "",
    customer_name: values.customer_name,
    customer_email: values.customer_email,
    customer_phone: values.customer_phone,
    address: cart.delivery_type === "delivery" ? { ...address, address: address.address || "Home" } : undefined,
    gateway_code: values.gateway_code,
    lines: checkoutLines(cart),
  });
  if (!parsed.success)
    return data(
      { values, ...splitCheckoutErrors(issuesAsErrors(parsed.error.issues), undefined, lang) },
      { status: 400 },
    );
  const rules = addressRules(parsed.data.address);
  const placed = Object.keys(rules).length
    ? ({ ok: false, errors: rules, params: {} } as const)
    : await placeOrder(db, {
        request: parsed.data,
        lang,
        baseUrl: linkBaseUrl(),
        addresses: platformAddresses(request),
        clientAddress: context.get(clientAddressContext),
        deviceToken: visitor.token,
      });
  if (!placed.ok) return data({ values, ...splitCheckoutErrors(placed.errors, placed.params, lang) }, { status: 400 });
  const headers = await storeCart(visitor, request, afterOrder(cart));
  if (placed.order.checkout_url) return redirect(placed.order.checkout_url, { status: 303, headers });
  return redirect(`/${lang}/new-menu/order-confirmation/${placed.order.number}`, { status: 303, headers });
}

export default function Checkout() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const formAction = `/${page.lang}/new-menu/checkout?merchant=${page.merchantId}`;
  const fields: Record<string, string> = answer?.fields ?? {};
  const lineErrors: Record<number, string> = answer?.lines ?? {};
  const value = (name: string, fallback = "") => answer?.values?.[name] ?? fallback;
  const general = ["branch", "delivery_type", "delivery_area", "lines", "non_field_errors"]
    .map((key) => fields[key])
    .filter(Boolean);
  const delivery = page.deliveryType === "delivery";
  return (
    <CustomerLayout unit={page.unit} lang={page.lang} path={location.pathname + location.search} narrow>
      <div className="c-stack">
        <a className="c-link" href={`/${page.lang}/new-menu?merchant=${page.merchantId}`}>
          {t("food_public.details.back")}
        </a>
        <h1 className="c-title">{t("food_public.checkout.title")}</h1>
        <Card>
          <p>
            {t(`food_public.delivery_types.${page.deliveryType}`)}
            {page.branch ? ` · ${page.branch}` : ""}
            {page.area ? ` · ${page.area}` : ""}{" "}
            <a className="c-link" href={`/${page.lang}/new-menu/branches?merchant=${page.merchantId}`}>
              {page.branch ? t("food_public.checkout.change") : t("food_public.checkout.choose_branch")}
            </a>
          </p>
        </Card>
        {general.map((message) => (
          <Alert key={message} color="red">
            {message}
          </Alert>
        ))}
        {page.lines.length === 0 ? (
          <Card>
            <div className="c-stack">
              <p>{t("food_public.checkout.empty")}</p>
              <LinkButton href={`/${page.lang}/new-menu?merchant=${page.merchantId}`}>
                {t("food_public.checkout.to_menu")}
              </LinkButton>
            </div>
          </Card>
        ) : (
          <Card>
            <h2 className="c-subtitle">{t("food_public.checkout.your_order")}</h2>
            {page.lines.map((line) => (
              <CartLine
                key={line.index}
                id={`line-${line.index}`}
                label={
                  <span className="c-strong">
                    {line.view
                      ? `${line.view.quantity} × ${line.view.name}`
                      : t("food_public.checkout.unavailable_line")}
                  </span>
                }
                amount={line.view?.lineTotal}
              >
                {line.view?.details.length ? (
                  <span className="c-small c-dimmed">{line.view.details.join(" · ")}</span>
                ) : null}
                {line.view?.instructions ? <span className="c-small">“{line.view.instructions}”</span> : null}
                {lineErrors[line.index] || line.error ? (
                  <p className="c-field__error">{lineErrors[line.index] ?? line.error}</p>
                ) : null}
                <LineQuantityForms
                  action={formAction}
                  keyName="line"
                  keyValue={line.index}
                  quantity={line.quantity}
                  max={999}
                  labels={{
                    quantity: t("food_public.details.quantity"),
                    update: t("food_public.checkout.update"),
                    remove: t("food_public.checkout.remove"),
                  }}
                />
              </CartLine>
            ))}
            <Totals totals={page.totals} />
            {page.minimum ? (
              <Alert color="orange">{t("food_public.checkout.minimum", { amount: page.minimum })}</Alert>
            ) : null}
          </Card>
        )}
        <form method="post" action={formAction} className="c-stack">
          <Card>
            <OfferCodeField
              name="voucher"
              intent="voucher"
              labels={{ field: t("food_public.checkout.voucher"), apply: t("food_public.checkout.apply") }}
              defaultValue={value("voucher", page.voucher ?? "")}
              error={fields.voucher ?? page.voucherError}
            />
          </Card>
          <Card>
            <div className="c-stack">
              <h2 className="c-subtitle">{t("food_public.checkout.your_details")}</h2>
              <TextField
                name="customer_name"
                label={t("food_public.checkout.name")}
                autoComplete="name"
                maxLength={100}
                required
                defaultValue={value("customer_name")}
                error={fields.customer_name}
                dir="auto"
              />
              <TextField
                name="customer_phone"
                label={t("food_public.checkout.phone")}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                maxLength={30}
                required
                defaultValue={value("customer_phone")}
                error={fields.customer_phone}
                dir="ltr"
              />
              <TextField
                name="customer_email"
                label={t("food_public.checkout.email")}
                type="email"
                inputMode="email"
                autoComplete="email"
                maxLength={254}
                defaultValue={value("customer_email")}
                error={fields.customer_email}
                dir="ltr"
              />
            </div>
          </Card>
          {delivery ? (
            <Card>
              <div className="c-stack">
                <h2 className="c-subtitle">{t("food_public.checkout.address")}</h2>
                <SelectField
                  name="address.address"
                  label={t("food_public.address.address")}
                  options={ADDRESS_NAMES.map((name) => ({
                    value: name,
                    label: t(`food_public.address.names.${name.toLowerCase()}`),
                  }))}
                  defaultValue={value("address.address", "Home")}
                  error={fields["address.address"]}
                />
                <TextField
                  name="address.custom_address"
                  label={t("food_public.address.custom_address")}
                  maxLength={15}
                  defaultValue={value("address.custom_address")}
                  error={fields["address.custom_address"]}
                  dir="auto"
                />
                <TextField
                  name="address.area"
                  label={t("food_public.address.area")}
                  required
                  maxLength={100}
                  defaultValue={value("address.area", page.area ?? "")}
                  error={fields["address.area"]}
                  dir="auto"
                />
                <TextField
                  name="address.block"
                  label={t("food_public.address.block")}
                  required
                  maxLength={20}
                  defaultValue={value("address.block")}
                  error={fields["address.block"]}
                  dir="auto"
                />
                <TextField
                  name="address.street"
                  label={t("food_public.address.street")}
                  required
                  maxLength={100}
                  defaultValue={value("address.street")}
                  error={fields["address.street"]}
                  dir="auto"
                />
                <TextField
                  name="address.avenue"
                  label={t("food_public.address.avenue")}
                  maxLength={40}
                  defaultValue={value("address.avenue")}
                  error={fields["address.avenue"]}
                  dir="auto"
                />
                <TextField
                  name="address.house_no"
                  label={t("food_public.address.house_no")}
                  required
                  maxLength={20}
                  defaultValue={value("address.house_no")}
                  error={fields["address.house_no"]}
                  dir="auto"
                />
                <TextField
                  name="address.floor"
                  label={t("food_public.address.floor")}
                  maxLength={20}
                  defaultValue={value("address.floor")}
                  error={fields["address.floor"]}
                  dir="auto"
                />
                <TextField
                  name="address.office_no"
                  label={t("food_public.address.office_no")}
                  maxLength={20}
                  defaultValue={value("address.office_no")}
                  error={fields["address.office_no"]}
                  dir="auto"
                />
                <TextField
                  name="address.paci_no"
                  label={t("food_public.address.paci_no")}
                  inputMode="numeric"
                  maxLength={8}
                  pattern="\d{1,8}"
                  defaultValue={value("address.paci_no")}
                  error={fields["address.paci_no"]}
                  dir="ltr"
                />
                <TextAreaField
                  name="address.special_instructions"
                  label={t("food_public.address.special_instructions")}
                  maxLength={256}
                  rows={2}
                  defaultValue={value("address.special_instructions")}
                  error={fields["address.special_instructions"]}
                  dir="auto"
                />
              </div>
            </Card>
          ) : null}
          <Card>
            <div className="c-stack">
              <TextField
                name="scheduled_for"
                type="datetime-local"
                label={t("food_public.checkout.scheduled_for")}
                description={page.deliveryType === "catering" ? undefined : t("food_public.checkout.scheduled_hint")}
                required={page.deliveryType === "catering"}
                defaultValue={value("scheduled_for")}
                error={fields.scheduled_for}
                dir="ltr"
              />
              <PaymentChoices
                legend={t("food_public.checkout.payment_method")}
                gateways={page.gateways}
                chosen={answer?.values?.gateway_code}
                error={fields.gateway_code}
              />
              <Button type="submit" name="intent" value="place" fullWidth size="lg" disabled={page.lines.length === 0}>
                {t("food_public.checkout.place_order", { total: page.totals.total })}
              </Button>
            </div>
          </Card>
        </form>
      </div>
    </CustomerLayout>
  );
}
