import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { startAttempt } from "./attempts.server";
import {
  confirmDelivery,
  deliveryStateOf,
  deliveryStepFor,
  saveDeliveryAddress,
  saveDeliveryLocation,
} from "./delivery.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Delivery");
});
afterAll(async () => database?.destroy());

async function request(mode: "address" | "address_location") {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "5", pg_codes: "cod", delivery_mode: mode }),
    baseUrl: "https://pay.example",
    lang: "en",
  });
  if (!created.ok) throw new Error("not created");
  return created.transaction.id;
}

const good = { address: "Home", area: "Salmiya", block: "10", street: "Baghdad St", house_no: "7" };

describe("delivery details", () => {
  it("checks the address field by field, with the spec's limits", async () => {
    const id = await request("address");
    const outcome = await saveDeliveryAddress(
      database.db,
      id,
      {
        address: "Custom",
        custom_address: "x".repeat(16),
        area: "Atlantis",
        block: "",
        paci_no: "12a",
        special_instructions: "y".repeat(257),
      },
      "KW",
    );
    expect(outcome).toEqual({
      ok: false,
      errors: {
        custom_address: ["delivery.errors.custom_address_length"],
        block: ["errors.required"],
        street: ["errors.required"],
        house_no: ["errors.required"],
        paci_no: ["delivery.errors.paci"],
        special_instructions: ["delivery.errors.special_instructions_length"],
      },
    });
    expect(await saveDeliveryAddress(database.db, id, { ...good, area: "Atlantis" }, "KW")).toEqual({
      ok: false,
      errors: { area: ["delivery.errors.area"] },
    });
    expect(await saveDeliveryAddress(database.db, id, { ...good, area: "Atlantis" }, "SA")).toEqual({
      ok: true,
      needsLocation: false,
    });
  });

  it("opens the payment methods only after the customer confirms", async () => {
    const id = await request("address_location");
    const pay = () =>
      startAttempt(database.db, {
        plugins: PAYABLE_SECTIONS,
        transactionId: id,
        gatewayCode: "cod",
        submissionToken: `t-${Math.random()}`,
        lang: "en",
        addresses,
      });
    expect(deliveryStepFor(await deliveryStateOf(database.db, id), null)).toBe("welcome");
    expect(await pay()).toEqual({ ok: false, error: "pay.errors.delivery_required" });
    expect(await saveDeliveryAddress(database.db, id, { ...good, area: "السالمية" }, "KW")).toEqual({
      ok: true,
      needsLocation: true,
    });
    expect(await saveDeliveryLocation(database.db, id, { lat: "95", lng: "48" })).toEqual({
      ok: false,
      errors: { lat: ["delivery.errors.coordinates"] },
    });
    expect(await saveDeliveryLocation(database.db, id, { lat: "29.334", lng: "48.076" })).toEqual({ ok: true });
    expect(deliveryStepFor(await deliveryStateOf(database.db, id), null)).toBe("confirm");
    expect(await pay()).toEqual({ ok: false, error: "pay.errors.delivery_required" });
    expect(await confirmDelivery(database.db, id)).toBe(true);
    expect(deliveryStepFor(await deliveryStateOf(database.db, id), null)).toBeNull();
    expect((await pay()).ok).toBe(true);
    // Paid: the details cannot be changed any more.
    expect((await saveDeliveryAddress(database.db, id, good, "KW")).ok).toBe(false);
    expect(await deliveryStateOf(database.db, id)).toMatchObject({
      location: { lat: 29.334, lng: 48.076 },
      confirmed: true,
    });
  });
});
