import type { loadList } from "../list.server";

/** What the transaction list's loader gives its page. */
export type ListData = Awaited<ReturnType<typeof loadList>>;

export function rawValue(raw: ListData["raw"], name: string): string {
  const value = raw[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

export function rawValues(raw: ListData["raw"], name: string): string[] {
  const value = raw[name];
  return (Array.isArray(value) ? value : value ? [value] : []).flatMap((entry) => entry.split(","));
}

/** Hidden inputs that keep the rest of the view (filters, page size) when one form changes one part. */
export function KeepParams({ raw, except }: { raw: ListData["raw"]; except: string[] }) {
  return (
    <>
      {Object.entries(raw)
        .filter(([name]) => !except.includes(name) && !["page", "operation", "confirm", "id", "done"].includes(name))
        .flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((entry, index) => (
            <input key={`${name}-${index}`} type="hidden" name={name} value={entry} />
          )),
        )}
    </>
  );
}
