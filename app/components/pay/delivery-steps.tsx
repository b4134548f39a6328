import { useText } from "~/components/pay/use-text";
import { ADDRESS_TYPES, DEFAULT_MAP_CENTER } from "~/domain/payments/delivery-schema";
import { useNonce } from "../nonce";
import { DELIVERY_MAP_SCRIPT } from "./delivery-map-script";
import { Alert, Button, Card, LinkButton, SelectField, TextAreaField, TextField } from "./ui";

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
  const t = useText();
  if (view.step === "welcome") {
    return (
      <Card role="dialog" aria-labelledby="delivery-welcome">
        <div className="c-stack">
          <h2 className="c-title" id="delivery-welcome">
            {t("delivery.welcome_title")}
          </h2>
          <p className="c-text">{t("delivery.welcome_message")}</p>
          <LinkButton href="?step=address">{t("delivery.continue")}</LinkButton>
        </div>
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
  const t = useText();
  const value = (name: string) => view.values?.[name] ?? view.address?.[name] ?? "";
  const chosenType = value("address") || "Home";
  const input = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextField name={name} label={label} defaultValue={value(name)} error={fieldError(view, name, t)} {...extra} />
  );
  return (
    <Card>
      <form method="post">
        <input type="hidden" name="intent" value="save_address" />
        <div className="c-stack">
          <h2 className="c-title">{t("delivery.address_title")}</h2>
          {view.prefilled ? <Alert color="orange">{t("delivery.check_details")}</Alert> : null}
          <fieldset className="plain-fieldset">
            <legend className="c-field__label">{t("delivery.address_type")}</legend>
            <div className="c-row" style={{ flexWrap: "wrap", gap: "var(--mantine-spacing-md)", marginTop: 4 }}>
              {ADDRESS_TYPES.map((type) => (
                <label key={type} className="delivery-type">
                  <input type="radio" name="address" value={type} defaultChecked={chosenType === type} required />{" "}
                  {t(`delivery.types.${type}`)}
                </label>
              ))}
            </div>
          </fieldset>
          {input("custom_address", t("delivery.custom_address"), {
            maxLength: 15,
            description: t("delivery.custom_address_help"),
          })}
          {view.areas ? (
            <SelectField
              name="area"
              label={t("delivery.area")}
              defaultValue={value("area")}
              options={[
                { value: "", label: t("delivery.choose_area") },
                ...view.areas.map((area) => ({ value: area, label: area })),
              ]}
              error={fieldError(view, "area", t)}
              required
            />
          ) : (
            input("area", t("delivery.area"), { required: true })
          )}
          <div className="c-grid">
            {input("block", t("delivery.block"), { required: true })}
            {input("street", t("delivery.street"), { required: true })}
            {input("avenue", t("delivery.avenue"))}
            {input("house_no", t("delivery.house_no"), { required: true })}
            {input("floor", t("delivery.floor"))}
            {input("office_no", t("delivery.office_no"))}
          </div>
          {input("paci_no", t("delivery.paci_no"), { inputMode: "numeric", maxLength: 8, pattern: "\\d{0,8}" })}
          <TextAreaField
            name="special_instructions"
            label={t("delivery.special_instructions")}
            defaultValue={value("special_instructions")}
            maxLength={256}
            error={fieldError(view, "special_instructions", t)}
            rows={2}
          />
          <Button type="submit">{t("delivery.submit")}</Button>
        </div>
      </form>
    </Card>
  );
}

function LocationForm({ view }: { view: DeliveryView }) {
  const t = useText();
  const nonce = useNonce();
  const point = view.location ?? view.defaultCenter;
  return (
    <Card>
      <div className="c-stack">
        <h2 className="c-title">{t("delivery.location_title")}</h2>
        <p className="c-dimmed">{t("delivery.location_help")}</p>
        <form method="post">
          <input type="hidden" name="intent" value="save_location" />
          <div className="c-stack">
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
                  <p className="c-text">{t("delivery.location_title")}</p>
                  <Button type="button" size="xs" data-got-it>
                    {t("delivery.got_it")}
                  </Button>
                </div>
                <div className="c-row c-row--grow">
                  <Button type="button" variant="light" data-edit-location hidden>
                    {t("delivery.tap_to_edit")}
                  </Button>
                  <Button type="button" data-confirm-location hidden>
                    {t("delivery.confirm_pin")}
                  </Button>
                </div>
              </>
            ) : null}
            <details className="location-edit" open={Boolean(view.errors)}>
              <summary>{t("delivery.enter_coordinates")}</summary>
              <div className="c-grid c-grid--2" style={{ marginTop: "var(--mantine-spacing-sm)" }}>
                <TextField
                  name="lat"
                  label={t("delivery.latitude")}
                  defaultValue={String(point.lat)}
                  inputMode="decimal"
                  error={fieldError(view, "lat", t)}
                  dir="ltr"
                />
                <TextField
                  name="lng"
                  label={t("delivery.longitude")}
                  defaultValue={String(point.lng)}
                  inputMode="decimal"
                  error={fieldError(view, "lng", t)}
                  dir="ltr"
                />
              </div>
              <Button
                type="button"
                variant="subtle"
                style={{ marginTop: "var(--mantine-spacing-xs)" }}
                data-use-my-location
                hidden
              >
                {t("delivery.use_my_location")}
              </Button>
            </details>
            <Button type="submit" data-save-location>
              {t("delivery.confirm_location")}
            </Button>
          </div>
        </form>
        {view.mapStyleUrl ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: DELIVERY_MAP_SCRIPT }} /> : null}
        <form method="post">
          <input type="hidden" name="intent" value="skip_location" />
          <Button type="submit" variant="default" fullWidth>
            {t("delivery.skip_location")}
          </Button>
        </form>
      </div>
    </Card>
  );
}

function ConfirmStep({ view }: { view: DeliveryView }) {
  const t = useText();
  const address = view.address ?? {};
  const lines = [
    address.address === "Custom"
      ? address.custom_address
      : address.address
        ? t(`delivery.types.${address.address}`)
        : null,
    address.area,
    [
      address.block && `${t("delivery.block")} ${address.block}`,
      address.street && `${t("delivery.street")} ${address.street}`,
      address.avenue && `${t("delivery.avenue")} ${address.avenue}`,
    ]
      .filter(Boolean)
      .join("، "),
    [
      address.house_no && `${t("delivery.house_no")} ${address.house_no}`,
      address.floor && `${t("delivery.floor")} ${address.floor}`,
      address.office_no && `${t("delivery.office_no")} ${address.office_no}`,
    ]
      .filter(Boolean)
      .join("، "),
    address.paci_no ? `${t("delivery.paci_no")} ${address.paci_no}` : null,
    address.special_instructions,
  ].filter(Boolean);
  return (
    <Card role="dialog" aria-labelledby="delivery-confirm">
      <div className="c-stack">
        <h2 className="c-title" id="delivery-confirm">
          {t("delivery.confirm_title")}
        </h2>
        <p className="c-text">{t("delivery.confirm_message")}</p>
        <Card className="c-card--muted">
          {lines.map((line, index) => (
            <p className="c-text" key={index}>
              {line}
            </p>
          ))}
          {view.location ? (
            <a
              href={`https://www.google.com/maps?q=${view.location.lat},${view.location.lng}`}
              target="_blank"
              rel="noopener noreferrer"
            >
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
        <LinkButton href="?step=address" variant="default">
          {t("delivery.edit")}
        </LinkButton>
      </div>
    </Card>
  );
}
