import type { DeliveryAddress } from "~/domain/payments/delivery-schema";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import type { TransactionRow } from "~/domain/transactions/list.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import type { DetailsRow, SectionField } from "../../contract";

function parsedAddress(json: string | null): DeliveryAddress | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as DeliveryAddress;
  } catch {
    return null;
  }
}

/** The customer's delivery address on one line, in the reader's language; "—" until they give it. */
export function deliverySummary(json: string | null, lang: Language): string {
  const address = parsedAddress(json);
  if (!address) return "—";
  const t = translator(lang);
  const labelled = (key: keyof DeliveryAddress, value: string | undefined) =>
    value && `${t(`delivery.${key}`)} ${value}`;
  return [
    address.address === "Custom" ? address.custom_address : t(`delivery.types.${address.address}`),
    address.area && kuwaitAreaIn(address.area, lang),
    labelled("block", address.block),
    labelled("street", address.street),
    labelled("avenue", address.avenue),
    labelled("house_no", address.house_no),
    labelled("floor", address.floor),
    labelled("office_no", address.office_no),
    labelled("paci_no", address.paci_no),
    address.special_instructions,
  ]
    .filter(Boolean)
    .join(lang === "ar" ? "، " : ", ");
}

/** The details page's delivery row, for a request that asked the customer where to deliver. */
export function deliveryDetails(row: TransactionRow, lang: Language): DetailsRow[] {
  if (row.delivery_mode === "none") return [];
  return [
    {
      name: "delivery_address",
      label: translator(lang)("payment_request.delivery"),
      value: deliverySummary(row.delivery_address, lang),
    },
  ];
}

/** The address as the API answers it (public spec §3 customer address info). */
export function serializeDelivery(row: TransactionRow) {
  return { delivery_address: parsedAddress(row.delivery_address) };
}

/** The delivery address as a column of the payment requests' list and exports. */
export const deliveryField: SectionField = {
  name: "delivery_address",
  label: "payment_request.delivery",
  display: (row, lang) => (row.delivery_mode === "none" ? "" : deliverySummary(row.delivery_address, lang)),
};
