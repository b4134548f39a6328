import { Alert, Button, Card, Group, Stack, TextInput } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/fulfillment";
import { PageHeader } from "~/components/page-header";
import { CAMERA_RESTART_MS, QrCamera, useQrCamera } from "~/components/qr-camera";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { scanPermission } from "../domain/order-qr.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "تسليم الطلبات" : "Order fulfilment" }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "food_ordering", "fulfillment");
  requirePermission(auth, "scan_order");
  return auth;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  await guard({ context, request });
  return null;
}

/** A scanned or typed code: the order's details when the user may scan it, else 'Invalid QR Code'. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const code = String((await readFormData(request)).get("code") ?? "")
    .trim()
    .slice(0, 200);
  const answer = code
    ? await scanPermission(getDbFrom(context), auth.user, code)
    : { has_permission: false, order_id: null };
  if (answer.has_permission && answer.order_id !== null)
    return redirect(`/${lang}/food-ordering/orders/${answer.order_id}`);
  return data({ error: translator(lang)("food_orders.fulfillment.invalid"), at: Date.now() }, { status: 400 });
}

export default function FoodFulfillment() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const submit = useSubmit();
  // Each code read goes to this page's action, which opens the order or answers 'Invalid QR Code'.
  const camera = useQrCamera((code) => void submit({ code }, { method: "post" }));
  const { resume } = camera;
  useEffect(() => {
    if (actionData?.error) return resume(CAMERA_RESTART_MS);
  }, [actionData, resume]);
  return (
    <Stack maw={760}>
      <PageHeader title={t("food_orders.fulfillment.title")} description={t("food_orders.fulfillment.subtitle")} />
      {actionData?.error ? (
        <Alert color="red" role="alert">
          {actionData.error}
        </Alert>
      ) : null}
      <Card withBorder padding="md">
        <Stack>
          <QrCamera
            camera={camera}
            labels={{
              start: t("food_orders.fulfillment.camera_start"),
              stop: t("food_orders.fulfillment.camera_stop"),
              unavailable: t("food_orders.fulfillment.camera_unavailable"),
            }}
          />
          <Form method="post">
            <Group align="flex-end">
              <TextInput
                name="code"
                label={t("food_orders.fulfillment.code")}
                description={t("food_orders.fulfillment.code_hint")}
                required
                maxLength={200}
                autoComplete="off"
                dir="ltr"
                style={{ flex: 1 }}
              />
              <Button type="submit" loading={busy}>
                {t("food_orders.fulfillment.submit")}
              </Button>
            </Group>
          </Form>
        </Stack>
      </Card>
    </Stack>
  );
}
