import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/product";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { AreaField, Field, Flag, useFieldError, type FormState } from "~/sections/catalogue/components/admin/fields";
import { ProductImages } from "~/sections/catalogue/components/admin/product-images";
import { idOf, issuesByField, type FieldErrors } from "~/sections/catalogue/domain/fields";
import {
  IMAGE_MAX_BYTES,
  isOwnImageKey,
  PRODUCT_IMAGES_MAX,
  dashboardProductImageUrl,
  putCatalogueImage,
} from "~/sections/catalogue/domain/images.server";
import { ProductSchema } from "~/sections/catalogue/domain/product-schema";
import {
  deleteProduct,
  getProduct,
  loadProductImages,
  saveProduct,
  serializeProduct,
} from "~/sections/catalogue/domain/products-admin.server";
import { loadShopMoney } from "~/sections/catalogue/domain/shop-money.server";
import { slugFrom } from "~/sections/catalogue/domain/slug";
import { formFieldErrors } from "~/sections/catalogue/presentation/errors.server";
import { formObject, withFlags } from "~/sections/catalogue/presentation/forms.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "منتج" : "Product" }];
}

function productIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

/** Most a product form may carry: its pictures and its fields. */
const MAX_FORM_BYTES = (PRODUCT_IMAGES_MAX + 1) * IMAGE_MAX_BYTES + 1024 * 1024;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "products",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const id = productIdOf(params);
  const money = await loadShopMoney(db, auth.user.merchantId);
  const product = id === null ? undefined : await getProduct(db, auth.user.merchantId, id);
  if (id !== null && !product) notFound();
  const images = product ? ((await loadProductImages(db, [product.id])).get(product.id) ?? []) : [];
  const values: Record<string, unknown> = product
    ? {
        ...serializeProduct(product, images, money, lang),
        unit: product.unit_id ?? "",
        inventory_shown: product.inventory === null ? "" : String(product.inventory),
        images: [],
      }
    : { is_active: true };
  const units = await db
    .selectFrom("units")
    .select(["id", "name"])
    .where("merchant_id", "=", auth.user.merchantId)
    .orderBy("is_default", "desc")
    .orderBy("id")
    .execute();
  return {
    lang,
    id,
    canChange,
    currency: money.currency,
    values,
    images: images.map((image) => ({
      id: image.id,
      url: dashboardProductImageUrl(lang, product!.id, image.id),
      position: image.position,
    })),
    units: units.map((unit) => ({ value: String(unit.id), label: unit.name })),
    limits: { images: PRODUCT_IMAGES_MAX, megabytes: IMAGE_MAX_BYTES / 1024 / 1024 },
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, {
    feature: "products",
    permission: "change_product",
  });
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  const id = productIdOf(params);
  const ip = context.get(clientAddressContext);
  const list = `/${lang}/catalogue/products`;
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return data(
      {
        values: {},
        pending: [] as string[],
        errors: formFieldErrors({ new_images: [{ code: "catalogue_admin.errors.images_too_large" }] }, lang),
      },
      { status: 400 },
    );
  }
  const form = await readFormData(request);
  if (form.get("intent") === "delete") {
    const removed = id === null ? { ok: false as const } : await deleteProduct(db, { merchantId, actor, id, ip });
    if (!removed.ok) notFound();
    return redirect(list, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: removed.deactivated ? "catalogue_admin.deactivated" : "catalogue_admin.deleted",
        }),
      },
    });
  }
  // Pictures are stored first, so a form refused for another field keeps them (their keys ride along).
  const pending = form
    .getAll("_pending_images")
    .filter((key): key is string => isOwnImageKey(merchantId, "product", key));
  const uploadErrors: string[] = [];
  for (const file of form.getAll("new_images")) {
    if (!(file instanceof File) || (file.size === 0 && !file.name)) continue;
    const stored = await putCatalogueImage(merchantId, "product", file);
    if (stored.ok) pending.push(stored.key);
    else uploadErrors.push(stored.error);
  }
  const values = withFlags(formObject(form), ["is_active"]);
  const whole: Record<string, unknown> = {
    slug: "",
    description_en: "",
    description_ar: "",
    sku: "",
    discounted_price: "",
    inventory: "",
    unit: "",
    ...values,
  };
  const refuse = (errors: FieldErrors) =>
    data({ values: whole, pending, errors: formFieldErrors(errors, lang) }, { status: 400 });
  const parsed = ProductSchema.safeParse(whole);
  const uploadFieldErrors: FieldErrors = uploadErrors.length
    ? {
        new_images: [...new Set(uploadErrors)].map((code) => ({
          code,
          params: { megabytes: IMAGE_MAX_BYTES / 1024 / 1024 },
        })),
      }
    : {};
  if (!parsed.success) return refuse({ ...issuesByField(parsed.error.issues), ...uploadFieldErrors });
  if (uploadErrors.length) return refuse(uploadFieldErrors);
  const saved = await saveProduct(db, {
    merchantId,
    actor,
    input: parsed.data,
    id: id ?? undefined,
    addedImages: pending,
    ip,
  });
  if (!saved.ok) {
    if (saved.notFound) notFound();
    // Units sold meanwhile: the form now shows what is left, so saving it again applies what was typed.
    if ("inventoryNow" in saved) whole.inventory_shown = saved.inventoryNow === null ? "" : String(saved.inventoryNow);
    return refuse(saved.errors);
  }
  return redirect(list, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "catalogue_admin.saved" }) },
  });
}

/** The slug follows the English name as it is typed until the slug itself is edited (with JavaScript; without it a blank slug is made on the server). */
function NameAndSlug({ state }: { state: FormState }) {
  const { t } = useTranslation();
  const initial = String(state.values.slug ?? "");
  const [slug, setSlug] = useState(initial);
  const [edited, setEdited] = useState(initial !== "");
  const slugError = useFieldError(state, "slug");
  return (
    <>
      <Field
        state={state}
        name="name_en"
        label={t("catalogue_admin.fields.name_en")}
        dir="ltr"
        required
        onChange={(event) => (edited ? undefined : setSlug(slugFrom(event.currentTarget.value)))}
      />
      <Field state={state} name="name_ar" label={t("catalogue_admin.fields.name_ar")} dir="rtl" required />
      <TextInput
        name="slug"
        id="f-slug"
        label={t("catalogue_admin.products.slug")}
        description={t("catalogue_admin.products.slug_help")}
        value={slug}
        onChange={(event) => {
          setSlug(event.currentTarget.value);
          setEdited(true);
        }}
        pattern="[a-z0-9\-]*"
        maxLength={80}
        dir="ltr"
        error={slugError}
      />
    </>
  );
}

export default function Product() {
  const { t } = useTranslation();
  const { lang, id, canChange, currency, values, images, units, limits } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const pending = reply && "pending" in reply ? reply.pending : [];
  const unitError = useFieldError(state, "unit");
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("catalogue_admin.products.new") : t("catalogue_admin.products.edit")} />
      <AdminNav lang={lang} canChange={canChange} current="products" />
      <Anchor component={Link} to={`/${lang}/catalogue/products`}>
        {t("catalogue_admin.products.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NameAndSlug state={state} />
              <Field state={state} name="sku" label={t("catalogue_admin.products.sku")} dir="ltr" maxLength={64} />
              <AreaField
                state={state}
                name="description_en"
                label={t("catalogue_admin.fields.description_en")}
                dir="ltr"
              />
              <AreaField
                state={state}
                name="description_ar"
                label={t("catalogue_admin.fields.description_ar")}
                dir="rtl"
              />
              <Field
                state={state}
                name="price"
                label={`${t("catalogue_admin.products.price")} (${currency})`}
                inputMode="decimal"
                dir="ltr"
                required
              />
              <Field
                state={state}
                name="discounted_price"
                label={`${t("catalogue_admin.products.discounted_price")} (${currency})`}
                description={t("catalogue_admin.products.discounted_help")}
                inputMode="decimal"
                dir="ltr"
              />
              <Field
                state={state}
                name="inventory"
                label={t("catalogue_admin.products.inventory")}
                description={t("catalogue_admin.products.inventory_help")}
                inputMode="numeric"
                dir="ltr"
              />
              {state.values.inventory_shown !== undefined ? (
                <input type="hidden" name="inventory_shown" value={String(state.values.inventory_shown)} />
              ) : null}
              <NativeSelect
                name="unit"
                id="f-unit"
                label={t("catalogue_admin.products.unit")}
                defaultValue={String(state.values.unit ?? "")}
                data={[{ value: "", label: t("catalogue_admin.products.no_unit") }, ...units]}
                error={unitError}
              />
              <Field
                state={state}
                name="position"
                label={t("catalogue_admin.fields.position")}
                inputMode="numeric"
                dir="ltr"
              />
            </SimpleGrid>
            <Flag
              state={state}
              name="is_active"
              label={t("catalogue_admin.fields.is_active")}
              description={t("catalogue_admin.products.active_help")}
            />
            <ProductImages
              state={state}
              images={images}
              pending={pending}
              maxImages={limits.images}
              maxMegabytes={limits.megabytes}
            />
            {canChange ? (
              <Group>
                <Button type="submit" name="intent" value="save">
                  {t("catalogue_admin.save")}
                </Button>
                {id !== null ? (
                  <Button type="submit" name="intent" value="delete" variant="subtle" color="red" formNoValidate>
                    {t("catalogue_admin.delete")}
                  </Button>
                ) : null}
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
