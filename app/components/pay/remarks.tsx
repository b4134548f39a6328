import { useText } from "~/components/pay/use-text";

/** Public spec: remarks are rows of label and value ('~' between rows, ':' between label and value). */
export function Remarks({ rows }: { rows: [string, string][] }) {
  const t = useText();
  return (
    <section className="pay-details__section">
      <h3 className="pay-details__heading">{t("pay.remarks")}</h3>
      <table className="c-table">
        <tbody>
          {rows.map(([label, value], index) => (
            <tr key={index}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
