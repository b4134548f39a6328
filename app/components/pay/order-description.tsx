import { useText } from "~/components/pay/use-text";

/** Public spec: an item longer than 20 characters is laid out as long (a full row), shorter ones side by side. */
export const LONG_ITEM_LENGTH = 20;

export function descriptionItems(description: string | null): string[] {
  return (description ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

export function OrderDescription({ items }: { items: string[] }) {
  const t = useText();
  return (
    <section className="pay-details__section">
      <h3 className="pay-details__heading">{t("pay.order_description")}</h3>
      <ul className="order-items">
        {items.map((item, index) => (
          <li
            key={index}
            className={Array.from(item).length > LONG_ITEM_LENGTH ? "order-item order-item--long" : "order-item"}
          >
            {item}
          </li>
        ))}
      </ul>
    </section>
  );
}
