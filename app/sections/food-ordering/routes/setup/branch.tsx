import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/branch";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { KUWAIT_AREAS } from "~/domain/payments/kuwait-areas";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import { AreaField, Field, Flag, type FormState } from "~/sections/food-ordering/components/setup/fields";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import {
  BranchSchema,
  DeliveryAreaSchema,
  hoursFromText,
  hoursToText,
} from "~/sections/food-ordering/domain/branch-schema";
import {
  deleteArea,
  getArea,
  getBranch,
  isOpenNow,
  listAreas,
  loadBranchHours,
  saveArea,
  saveBranch,
} from "~/sections/food-ordering/domain/branches-admin.server";
import { idOf, issuesByField, type SetupErrors } from "~/sections/food-ordering/domain/setup-fields";
import { formFieldErrors } from "~/sections/food-ordering/presentation/setup-errors.server";
import { formObject, withFlags } from "~/sections/food-ordering/presentation/setup-forms.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفرع" : "Branch" }];
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

function branchIdOf(params: { id?: string }) {
  if (params.id === undefined) return null;
  return idOf(params.id) ?? notFound();
}

/** A branch's details (spec §2: image, name, email, phone, address, minimum order sum, delivery time, map) and, for change_order, its form and delivery areas. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange, canSetUp } = await guardSetupPage(context, request, params, {
    feature: "branches",
    permission: "view_order",
  });
  const db = getDbFrom(context);
  const id = branchIdOf(params);
  if (id === null && !canChange) notFound();
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const branch = id === null ? undefined : await getBranch(db, auth.user.merchantId, id);
  if (id !== null && !branch) notFound();
  const hours = branch ? await loadBranchHours(db, branch.id) : [];
  const areas = branch ? await listAreas(db, auth.user.merchantId, { branchId: branch.id }) : [];
  const values: Record<string, unknown> = branch
    ? {
        name_en: branch.name_en,
        name_ar: branch.name_ar,
        email: branch.email,
        phone: branch.phone,
        address: branch.address_html,
        image: branch.image_path,
        minimum_order_sum: toDecimalString(Number(branch.min_order), currency),
        delivery_time: branch.delivery_minutes,
        lat: branch.lat,
        lng: branch.lng,
        offers_pickup: Boolean(branch.offers_pickup),
        offers_delivery: Boolean(branch.offers_delivery),
        offers_catering: Boolean(branch.offers_catering),
        is_active: Boolean(branch.is_active),
        ...Object.fromEntries(WEEKDAYS.map((day) => [`hours_${day}`, hoursToText(hours, day)])),
      }
    : { offers_pickup: true, offers_delivery: true, is_active: true, delivery_time: 45, minimum_order_sum: "" };
  return {
    lang,
    id,
    canChange,
    canSetUp,
    values,
    branch: branch && {
      name: lang === "ar" ? branch.name_ar : branch.name_en,
      email: branch.email,
      phone: branch.phone,
      address: branch.address_html,
      image: branch.image_path,
      minimum: formatAmount(Number(branch.min_order), currency, lang),
      deliveryTime: branch.delivery_minutes,
      map:
        branch.lat !== null && branch.lng !== null ? `https://www.google.com/maps?q=${branch.lat},${branch.lng}` : null,
      open: isOpenNow(hours),
    },
    areas: areas.map((area) => ({
      id: area.id,
      area: area.area,
      name: KUWAIT_AREAS.find((known) => known.en === area.area)?.[lang] ?? area.area,
      zone: area.zone,
      charge: toDecimalString(Number(area.charge), currency),
      min_order: toDecimalString(Number(area.min_order), currency),
      is_active: Boolean(area.is_active),
    })),
    areaChoices: KUWAIT_AREAS.map((area) => ({ value: area.en, label: area[lang] })),
  };
}

type Reply = { form: "branch" | "area"; areaId?: number; state: FormState };

/** Saves the branch (intent save), adds or changes a delivery area (add_area, save_area) or takes one away (delete_area). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardSetupPage(context, request, params, {
    feature: "branches",
    permission: "change_order",
  });
  const db = getDbFrom(context);
  const id = branchIdOf(params);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "save");
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const base = `/${lang}/food-ordering/branches`;
  if (id !== null && !(await getBranch(db, auth.user.merchantId, id))) notFound();
  if (intent === "save") {
    const values = withFlags(formObject(form), ["offers_pickup", "offers_delivery", "offers_catering", "is_active"]);
    const hours: { weekday: number; opens: string; closes: string }[] = [];
    const errors: SetupErrors = {};
    for (const day of WEEKDAYS) {
      const rows = hoursFromText(day, String(values[`hours_${day}`] ?? ""));
      if (rows === null) (errors[`hours_${day}`] ??= []).push({ code: "food_setup.errors.hours_text" });
      else hours.push(...rows);
    }
    const parsed = BranchSchema.safeParse({
      ...values,
      address: values.address ?? "",
      email: values.email ?? "",
      phone: values.phone ?? "",
      image: values.image ?? "",
      lat: values.lat ?? "",
      lng: values.lng ?? "",
      hours,
    });
    const refuse = (found: SetupErrors) => {
      // An interval's error names its weekday's field on the page.
      const byDay: SetupErrors = {};
      for (const [field, list] of Object.entries(found)) {
        const match = /^hours\.(\d+)\./.exec(field);
        byDay[match ? `hours_${hours[Number(match[1])]?.weekday}` : field] = list;
      }
      return data<Reply>({ form: "branch", state: { values, errors: formFieldErrors(byDay, lang) } }, { status: 400 });
    };
    if (Object.keys(errors).length)
      return refuse({ ...errors, ...(parsed.success ? {} : issuesByField(parsed.error.issues)) });
    if (!parsed.success) return refuse(issuesByField(parsed.error.issues));
    const saved = await saveBranch(db, {
      merchantId: auth.user.merchantId,
      actor,
      input: parsed.data,
      id: id ?? undefined,
      ip,
    });
    if (!saved.ok) {
      if (saved.notFound) notFound();
      return refuse(saved.errors);
    }
    return redirect(`${base}/${saved.value.id}`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) },
    });
  }
  if (id === null) notFound();
  const areaId = idOf(form.get("area_id"));
  if (intent === "delete_area") {
    const area = areaId === null ? undefined : await getArea(db, auth.user.merchantId, areaId);
    if (!area || area.branch_id !== id) notFound();
    const removed =
      areaId === null
        ? { ok: false as const }
        : await deleteArea(db, { merchantId: auth.user.merchantId, actor, id: areaId, ip });
    if (!removed.ok) notFound();
    return redirect(`${base}/${id}`, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: removed.deactivated ? "food_setup.deactivated" : "food_setup.deleted",
        }),
      },
    });
  }
  if (intent === "add_area" || intent === "save_area") {
    const values = withFlags(formObject(form), ["is_active"]);
    const parsed = DeliveryAreaSchema.safeParse({ ...values, branch: id });
    const refuse = (found: SetupErrors) =>
      data<Reply>(
        { form: "area", areaId: areaId ?? undefined, state: { values, errors: formFieldErrors(found, lang) } },
        { status: 400 },
      );
    if (!parsed.success) return refuse(issuesByField(parsed.error.issues));
    if (intent === "save_area") {
      const area = areaId === null ? undefined : await getArea(db, auth.user.merchantId, areaId);
      if (!area || area.branch_id !== id) notFound();
    }
    const saved = await saveArea(db, {
      merchantId: auth.user.merchantId,
      actor,
      input: parsed.data,
      id: intent === "save_area" ? (areaId ?? undefined) : undefined,
      ip,
    });
    if (!saved.ok) {
      if (saved.notFound) notFound();
      return refuse(saved.errors);
    }
    return redirect(`${base}/${id}`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) },
    });
  }
  return data({ reason: "unknown_intent" }, { status: 400 });
}

export default function Branch() {
  const { t } = useTranslation();
  const { lang, id, canChange, canSetUp, values, branch, areas, areaChoices } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const branchState: FormState = reply?.form === "branch" ? reply.state : { values, errors: {} };
  const newAreaState: FormState =
    reply?.form === "area" && reply.areaId === undefined ? reply.state : { values: { is_active: true }, errors: {} };
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={branch ? branch.name : t("food_setup.branches.new")} />
      <SetupNav lang={lang} canSetUp={canSetUp} current="branches" />
      <Anchor component={Link} to={`/${lang}/food-ordering/branches`}>
        {t("food_setup.branches.back")}
      </Anchor>
      {branch ? (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} fz="h4">
                {t("food_setup.branches.details")}
              </Title>
              <Badge color={branch.open ? "green" : "gray"} variant="light">
                {branch.open ? t("food_setup.branches.open_now") : t("food_setup.branches.closed_now")}
              </Badge>
            </Group>
            {branch.image ? <Image src={branch.image} alt={branch.name} maw={240} radius="sm" /> : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Text>
                <strong>{t("food_setup.branches.columns.name")}:</strong> {branch.name}
              </Text>
              <Text>
                <strong>{t("food_setup.branches.columns.email")}:</strong> <span dir="ltr">{branch.email ?? ""}</span>
              </Text>
              <Text>
                <strong>{t("food_setup.branches.columns.phone")}:</strong> <span dir="ltr">{branch.phone ?? ""}</span>
              </Text>
              <Text>
                <strong>{t("food_setup.branches.minimum_order_sum")}:</strong> <span dir="ltr">{branch.minimum}</span>
              </Text>
              <Text>
                <strong>{t("food_setup.branches.delivery_time")}:</strong>{" "}
                {t("food_setup.branches.minutes", { minutes: branch.deliveryTime })}
              </Text>
              {branch.map ? (
                <Anchor href={branch.map} target="_blank" rel="noopener noreferrer">
                  {t("food_setup.branches.map")}
                </Anchor>
              ) : null}
            </SimpleGrid>
            <div>
              <strong>{t("food_setup.branches.columns.address")}:</strong>
              {/* Sanitised when saved: only b, i, strong, em, br and p, without attributes. */}
              <div dangerouslySetInnerHTML={{ __html: branch.address }} />
            </div>
          </Stack>
        </Card>
      ) : null}

      {canChange ? (
        <Card withBorder padding="lg">
          <Form method="post" key={JSON.stringify(branchState.values)}>
            <input type="hidden" name="intent" value="save" />
            <Stack gap="md">
              <Title order={2} fz="h4">
                {id === null ? t("food_setup.branches.new") : t("food_setup.branches.edit")}
              </Title>
              <FormErrors errors={branchState.errors.non_field_errors} />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Field state={branchState} name="name_en" label={t("food_setup.fields.name_en")} dir="ltr" required />
                <Field state={branchState} name="name_ar" label={t("food_setup.fields.name_ar")} dir="rtl" required />
                <Field
                  state={branchState}
                  name="email"
                  label={t("food_setup.branches.columns.email")}
                  type="email"
                  dir="ltr"
                />
                <Field
                  state={branchState}
                  name="phone"
                  label={t("food_setup.branches.columns.phone")}
                  type="tel"
                  dir="ltr"
                />
              </SimpleGrid>
              <AreaField state={branchState} name="address" label={t("food_setup.branches.address_html")} />
              <Field state={branchState} name="image" label={t("food_setup.fields.image")} dir="ltr" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Field
                  state={branchState}
                  name="minimum_order_sum"
                  label={t("food_setup.branches.minimum_order_sum")}
                  inputMode="decimal"
                  dir="ltr"
                />
                <Field
                  state={branchState}
                  name="delivery_time"
                  label={t("food_setup.branches.delivery_minutes")}
                  inputMode="numeric"
                  dir="ltr"
                />
                <Field
                  state={branchState}
                  name="lat"
                  label={t("food_setup.fields.lat")}
                  inputMode="decimal"
                  dir="ltr"
                />
                <Field
                  state={branchState}
                  name="lng"
                  label={t("food_setup.fields.lng")}
                  inputMode="decimal"
                  dir="ltr"
                />
              </SimpleGrid>
              <Group>
                <Flag state={branchState} name="offers_pickup" label={t("food_setup.branches.offers_pickup")} />
                <Flag state={branchState} name="offers_delivery" label={t("food_setup.branches.offers_delivery")} />
                <Flag state={branchState} name="offers_catering" label={t("food_setup.branches.offers_catering")} />
                <Flag state={branchState} name="is_active" label={t("food_setup.fields.is_active")} />
              </Group>
              <Title order={3} fz="h5">
                {t("food_setup.branches.hours")}
              </Title>
              <Text size="sm" c="dimmed">
                {t("food_setup.branches.hours_help")}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {WEEKDAYS.map((day) => (
                  <Field
                    key={day}
                    state={branchState}
                    name={`hours_${day}`}
                    label={t(`food_setup.weekdays.${day}`)}
                    dir="ltr"
                    placeholder="09:00-13:00, 16:00-23:00"
                  />
                ))}
              </SimpleGrid>
              <Group>
                <Button type="submit">{t("food_setup.save")}</Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      ) : null}

      {branch ? (
        <Card withBorder padding="lg">
          <Stack gap="md">
            <Title order={2} fz="h4">
              {t("food_setup.areas.title")}
            </Title>
            {areas.length === 0 ? <Text c="dimmed">{t("food_setup.areas.empty")}</Text> : null}
            <Table.ScrollContainer minWidth={720}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("food_setup.areas.area")}</Table.Th>
                    <Table.Th>{t("food_setup.areas.zone")}</Table.Th>
                    <Table.Th>{t("food_setup.areas.charge")}</Table.Th>
                    <Table.Th>{t("food_setup.areas.min_order")}</Table.Th>
                    <Table.Th>{t("food_setup.fields.is_active")}</Table.Th>
                    {canChange ? <Table.Th /> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {areas.map((area) => {
                    const formId = `area-${area.id}`;
                    const state: FormState =
                      reply?.form === "area" && reply.areaId === area.id ? reply.state : { values: area, errors: {} };
                    if (!canChange) {
                      return (
                        <Table.Tr key={area.id}>
                          <Table.Td>{area.name}</Table.Td>
                          <Table.Td>{area.zone}</Table.Td>
                          <Table.Td dir="ltr">{area.charge}</Table.Td>
                          <Table.Td dir="ltr">{area.min_order}</Table.Td>
                          <Table.Td>{area.is_active ? t("food_setup.yes") : t("food_setup.no")}</Table.Td>
                        </Table.Tr>
                      );
                    }
                    const error = (name: string) => state.errors[name]?.map((message) => t(message)).join(" ");
                    return (
                      <Table.Tr key={area.id}>
                        <Table.Td>
                          <input type="hidden" name="area" value={area.area} form={formId} />
                          {area.name}
                          {error("area") ? (
                            <Text c="red" size="sm" role="alert">
                              {error("area")}
                            </Text>
                          ) : null}
                        </Table.Td>
                        <Table.Td>
                          <TextInput
                            name="zone"
                            form={formId}
                            defaultValue={String(state.values.zone ?? "")}
                            aria-label={t("food_setup.areas.zone")}
                            error={error("zone")}
                          />
                        </Table.Td>
                        <Table.Td>
                          <TextInput
                            name="charge"
                            form={formId}
                            defaultValue={String(state.values.charge ?? "")}
                            aria-label={t("food_setup.areas.charge")}
                            dir="ltr"
                            error={error("charge")}
                          />
                        </Table.Td>
                        <Table.Td>
                          <TextInput
                            name="min_order"
                            form={formId}
                            defaultValue={String(state.values.min_order ?? "")}
                            aria-label={t("food_setup.areas.min_order")}
                            dir="ltr"
                            error={error("min_order")}
                          />
                        </Table.Td>
                        <Table.Td>
                          <input
                            type="checkbox"
                            name="is_active"
                            value="on"
                            form={formId}
                            defaultChecked={Boolean(state.values.is_active)}
                            aria-label={t("food_setup.fields.is_active")}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Form method="post" id={formId}>
                            <input type="hidden" name="area_id" value={area.id} />
                            <Group gap="xs" wrap="nowrap">
                              <Button type="submit" name="intent" value="save_area" size="xs" variant="default">
                                {t("food_setup.save")}
                              </Button>
                              <Button
                                type="submit"
                                name="intent"
                                value="delete_area"
                                size="xs"
                                variant="subtle"
                                color="red"
                              >
                                {t("food_setup.delete")}
                              </Button>
                            </Group>
                          </Form>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {canChange ? (
              <Form method="post" key={JSON.stringify(newAreaState.values)}>
                <input type="hidden" name="intent" value="add_area" />
                <Stack gap="sm">
                  <Title order={3} fz="h5">
                    {t("food_setup.areas.add")}
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <NativeSelect
                      name="area"
                      label={t("food_setup.areas.area")}
                      defaultValue={String(newAreaState.values.area ?? "")}
                      data={[{ value: "", label: t("food_setup.areas.choose") }, ...areaChoices]}
                      error={newAreaState.errors.area?.map((message) => t(message)).join(" ")}
                    />
                    <Field state={newAreaState} name="zone" label={t("food_setup.areas.zone")} />
                    <Field
                      state={newAreaState}
                      name="charge"
                      label={t("food_setup.areas.charge")}
                      inputMode="decimal"
                      dir="ltr"
                    />
                    <Field
                      state={newAreaState}
                      name="min_order"
                      label={t("food_setup.areas.min_order")}
                      inputMode="decimal"
                      dir="ltr"
                    />
                  </SimpleGrid>
                  <Flag state={newAreaState} name="is_active" label={t("food_setup.fields.is_active")} />
                  <Group>
                    <Button type="submit" variant="default">
                      {t("food_setup.areas.add")}
                    </Button>
                  </Group>
                </Stack>
              </Form>
            ) : null}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
