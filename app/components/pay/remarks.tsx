import { useText } from "~/components/pay/use-text";
import { Card } from "./ui";

/** Public spec: a value with "~" splits into rows, each row split at its first ":" into two cells. */
export function remarkRows(remarks: string | null): [string, string][] {
  if (!remarks) return [];
  return remarks
    .split("~")
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => {
      const index = row.indexOf(":");
      return index === -1 ? [row, ""] : [row.slice(0, index).trim(), row.slice(index + 1).trim()];
    });
}

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
