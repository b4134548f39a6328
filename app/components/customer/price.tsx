import { Fragment, type ReactNode } from "react";

/** An amount as one unbreakable piece ("KWD 7.400", "٧٫٤٠٠ د.ك."): a phone's narrow line never splits it. */
export function Amount({ children, className }: { children: ReactNode; className?: string }) {
  return <span className={className ? `c-amount ${className}` : "c-amount"}>{children}</span>;
}

/**
 * A line of a cart, an order or a ticket: what is bought, which may wrap, and its amount at the line's
 * end, which never does.
 */
export function PriceLine({ label, amount, className }: { label: ReactNode; amount: ReactNode; className?: string }) {
  return (
    <div className={className ? `c-price-line ${className}` : "c-price-line"}>
      <span className="c-price-line__label">{label}</span>
      {amount ? <Amount>{amount}</Amount> : null}
    </div>
  );
}

export type TotalsRow = { label: string; amount: string; discount?: boolean; total?: boolean };

/**
 * A cart's or an order's amounts, already formatted and worded by the section, as a list of terms.
 * `name` is the section's class for the list (its total row takes `${name}__total`).
 */
export function Totals({ rows, name }: { rows: TotalsRow[]; name: string }) {
  return (
    <dl className={`c-totals ${name}`}>
      {rows.map((row) => {
        const total = row.total ? `c-totals__total ${name}__total` : undefined;
        return (
          <Fragment key={row.label}>
            <dt className={total}>{row.label}</dt>
            <dd className={total}>
              <Amount>{row.discount ? `−${row.amount}` : row.amount}</Amount>
            </dd>
          </Fragment>
        );
      })}
    </dl>
  );
}
