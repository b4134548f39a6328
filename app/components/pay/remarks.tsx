import { useText } from "~/components/pay/use-text";
import { Card } from "./ui";

export function Remarks({ rows }: { rows: [string, string][] }) {
  const t = useText();
  return (
    <Card>
      <h2 className="c-subtitle">{t("pay.remarks")}</h2>
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
    </Card>
  );
}
