import { Alert, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ADDRESS_TYPES, DEFAULT_MAP_CENTER } from "~/domain/payments/delivery-schema";
import { useNonce } from "../nonce";
import { DELIVERY_MAP_SCRIPT } from "./delivery-map-script";

export type DeliveryStep = "welcome" | "address" | "location" | "confirm";

export type DeliveryView = {
  step: DeliveryStep;
  mode: "address" | "address_location";
  address: Record<string, string | undefined> | null;
  location: { lat: number; lng: number } | null;
  defaultCenter: { lat: number; lng: number };
  areas: string[] | null;
  mapStyleUrl: string | null;
  prefilled: boolean;
  errors: Record<string, string[]> | null;
  values: Record<string, string> | null;
};

/**
 * The delivery steps of the pay page (public spec §2, multi-step): welcome, address, location
 * (when asked), confirmation; each is a plain form posted to the server, so no step needs
 * JavaScript. The payment methods appear once the customer confirms.
 */
export function DeliverySteps({ view }: { view: DeliveryView }) {
  const { t } = useTranslation();
  if (view.step === "welcome") {
    return (
      <Card withBorder padding="lg" role="dialog" aria-labelledby="delivery-welcome">
        <Stack>
          <Title order={2} fz="h3" id="delivery-welcome">
            {t("delivery.welcome_title")}
          </Title>
          <Text>{t("delivery.welcome_message")}</Text>
          <Button component="a" href="?step=address">
            {t("delivery.continue")}
          </Button>
        </Stack>
      </Card>
    );
  }
  if (view.step === "address") return <AddressForm view={view} />;
  if (view.step === "location") return <LocationForm view={view} />;
  return <ConfirmStep view={view} />;
}

function fieldError(view: DeliveryView, name: string, t: (key: string) => string) {
  const key = view.errors?.[name]?.[0];
  return key ? t(key) : undefined;
}

function AddressForm({ view }: { view: DeliveryView }) {
  const { t } = useTranslation();
  const value = (name: string) => view.values?.[name] ?? view.address?.[name] ?? "";
  const chosenType = value("address") || "Home";
  const input = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput name={name} label={label} defaultValue={value(name)} error={fieldError(view, name, t)} {...extra} />
  );
  return (
    <Card withBorder padding="lg">
      <form method="post">
        <input type="hidden" name="intent" value="save_address" />
        <Stack>
          <Title order={2} fz="h3">
            {t("delivery.address_title")}
          </Title>
          {view.prefilled ? <Alert color="orange">{t("delivery.check_details")}</Alert> : null}
          <fieldset className="plain-fieldset">
            <legend>
              <Text fw={600} size="sm">{t("delivery.address_type")}</Text>
            </legend>
            <Group gap="md" mt={4}>
              {ADDRESS_TYPES.map((type) => (
                <label key={type} className="delivery-type">
                  <input type="radio" name="address" value={type} defaultChecked={chosenType === type} required />{" "}
                  {t(`delivery.types.${type}`)}
                </label>
              ))}
            </Group>
          </fieldset>
          {input("custom_address", t("delivery.custom_address"), { maxLength: 15, description: t("delivery.custom_address_help") })}
          {view.areas ? (
            <NativeSelect
              name="area"
              label={t("delivery.area")}
              defaultValue={value("area")}
              data={[{ value: "", label: t("delivery.choose_area") }, ...view.areas.map((area) => ({ value: area, label: area }))]}
              error={fieldError(view, "area", t)}
              required
            />
          ) : (
            input("area", t("delivery.area"), { required: true })
          )}
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            {input("block", t("delivery.block"), { required: true })}
            {input("street", t("delivery.street"), { required: true })}
            {input("avenue", t("delivery.avenue"))}
            {input("house_no", t("delivery.house_no"), { required: true })}
            {input("floor", t("delivery.floor"))}
            {input("office_no", t("delivery.office_no"))}
          </SimpleGrid>
          {input("paci_no", t("delivery.paci_no"), { inputMode: "numeric", maxLength: 8, pattern: "\\d{0,8}" })}
          <Textarea
            name="special_instructions"
            label={t("delivery.special_instructions")}
            defaultValue={value("special_instructions")}
            maxLength={256}
            error={fieldError(view, "special_instructions", t)}
            autosize
            minRows={2}
          />
          <Button type="submit">{t("delivery.submit")}</Button>
        </Stack>
      </form>
    </Card>
  );
}

function LocationForm({ view }: { view: DeliveryView }) {
  const { t } = useTranslation();
  const nonce = useNonce();
  const point = view.location ?? view.defaultCenter;
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Title order={2} fz="h3">
          {t("delivery.location_title")}
        </Title>
        <Text c="dimmed">{t("delivery.location_help")}</Text>
        <form method="post">
          <input type="hidden" name="intent" value="save_location" />
          <Stack>
            {view.mapStyleUrl ? (
              <>
                <div
                  id="delivery-map"
                  className="delivery-map"
                  data-style={view.mapStyleUrl}
                  data-lat={point.lat}
                  data-lng={point.lng}
                  data-zoom={DEFAULT_MAP_CENTER.zoom}
                  hidden
                />
                <div className="map-hint" role="dialog" aria-label={t("delivery.location_title")} data-map-hint hidden>
                  <Text>{t("delivery.location_title")}</Text>
                  <Button type="button" size="xs" data-got-it>
                    {t("delivery.got_it")}
                  </Button>
                </div>
                <Group grow>
                  <Button type="button" variant="light" data-edit-location hidden>
                    {t("delivery.tap_to_edit")}
                  </Button>
                  <Button type="button" data-confirm-location hidden>
                    {t("delivery.confirm_pin")}
                  </Button>
                </Group>
              </>
            ) : null}
            <details className="location-edit" open={Boolean(view.errors)}>
              <summary>{t("delivery.enter_coordinates")}</summary>
              <SimpleGrid cols={2} mt="sm">
                <TextInput name="lat" label={t("delivery.latitude")} defaultValue={String(point.lat)} inputMode="decimal" error={fieldError(view, "lat", t)} dir="ltr" />
                <TextInput name="lng" label={t("delivery.longitude")} defaultValue={String(point.lng)} inputMode="decimal" error={fieldError(view, "lng", t)} dir="ltr" />
              </SimpleGrid>
              <Button type="button" variant="subtle" mt="xs" data-use-my-location hidden>
                {t("delivery.use_my_location")}
              </Button>
            </details>
            <Button type="submit" data-save-location>
              {t("delivery.confirm_location")}
            </Button>
          </Stack>
        </form>
        {view.mapStyleUrl ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: DELIVERY_MAP_SCRIPT }} /> : null}
        <form method="post">
          <input type="hidden" name="intent" value="skip_location" />
          <Button type="submit" variant="default" fullWidth>
            {t("delivery.skip_location")}
          </Button>
        </form>
      </Stack>
    </Card>
  );
}

function ConfirmStep({ view }: { view: DeliveryView }) {
  const { t } = useTranslation();
  const address = view.address ?? {};
  const lines = [
    address.address === "Custom" ? address.custom_address : address.address ? t(`delivery.types.${address.address}`) : null,
    address.area,
    [address.block && `${t("delivery.block")} ${address.block}`, address.street && `${t("delivery.street")} ${address.street}`, address.avenue && `${t("delivery.avenue")} ${address.avenue}`]
      .filter(Boolean)
      .join("، "),
    [address.house_no && `${t("delivery.house_no")} ${address.house_no}`, address.floor && `${t("delivery.floor")} ${address.floor}`, address.office_no && `${t("delivery.office_no")} ${address.office_no}`]
      .filter(Boolean)
      .join("، "),
    address.paci_no ? `${t("delivery.paci_no")} ${address.paci_no}` : null,
    address.special_instructions,
  ].filter(Boolean);
  return (
    <Card withBorder padding="lg" role="dialog" aria-labelledby="delivery-confirm">
      <Stack>
        <Title order={2} fz="h3" id="delivery-confirm">
          {t("delivery.confirm_title")}
        </Title>
        <Text>{t("delivery.confirm_message")}</Text>
        <Card withBorder bg="gray.0">
          {lines.map((line, index) => (
            <Text key={index}>{line}</Text>
          ))}
          {view.location ? (
            <a href={`https://www.google.com/maps?q=${view.location.lat},${view.location.lng}`} target="_blank" rel="noopener noreferrer">
              {t("delivery.view_on_map")}
            </a>
          ) : null}
        </Card>
        <form method="post">
          <input type="hidden" name="intent" value="confirm_delivery" />
          <Button type="submit" fullWidth>
            {t("delivery.confirm")}
          </Button>
        </form>
        <Button component="a" href="?step=address" variant="default">
          {t("delivery.edit")}
        </Button>
      </Stack>
    </Card>
  );
}
