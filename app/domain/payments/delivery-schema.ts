import { z } from "zod";

export const ADDRESS_TYPES = ["Home", "Work", "Chalet", "Farm", "Custom"] as const;

const text = (max: number, message = "errors.too_long") =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => value || undefined);
const required = (max: number) =>
  z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(max, "errors.too_long");

/** The delivery address of public spec §2 (multi-step pay page), with its limits. */
export const DeliveryAddressSchema = z
  .object({
    address: z.enum(ADDRESS_TYPES, { error: "errors.required" }),
    custom_address: text(15, "delivery.errors.custom_address_length"),
    area: required(80),
    block: required(20),
    street: required(80),
    avenue: text(40),
    house_no: required(20),
    floor: text(10),
    office_no: text(20),
    paci_no: z
      .string()
      .trim()
      .regex(/^\d{0,8}$/, "delivery.errors.paci")
      .optional()
      .transform((value) => value || undefined),
    special_instructions: text(256, "delivery.errors.special_instructions_length"),
  })
  .superRefine((value, context) => {
    if (value.address === "Custom" && !value.custom_address) {
      context.addIssue({ code: "custom", path: ["custom_address"], message: "errors.required" });
    }
  });

export type DeliveryAddress = z.output<typeof DeliveryAddressSchema>;

export const DeliveryLocationSchema = z.object({
  lat: z.coerce
    .number({ error: "delivery.errors.coordinates" })
    .min(-90, "delivery.errors.coordinates")
    .max(90, "delivery.errors.coordinates"),
  lng: z.coerce
    .number({ error: "delivery.errors.coordinates" })
    .min(-180, "delivery.errors.coordinates")
    .max(180, "delivery.errors.coordinates"),
});

export const DEFAULT_MAP_CENTER = { lat: 29.3759, lng: 47.9774, zoom: 14 };
