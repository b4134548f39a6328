import type { DB } from "~/db/database.server";
import type { CustomerResult, SectionServer } from "./contract";
import type { Language } from "~/lib/i18n";
import { SECTIONS } from "./registry";
import { offerSectionServices } from "./services.server";

const servers = new Map<string, SectionServer>();
let loading: Promise<ReadonlyMap<string, SectionServer>> | undefined;

/** Loads the server part of every built section that has one; the platform awaits it once when it starts. */
export function loadSectionServers(): Promise<ReadonlyMap<string, SectionServer>> {
  loading ??= (async () => {
    for (const section of SECTIONS) {
      if (!section.server) continue;
      const { sectionServer } = await section.server();
      if (sectionServer.key !== section.key)
        throw new Error(`The server part of ${section.key} names itself ${sectionServer.key}`);
      servers.set(section.key, sectionServer);
    }
    offerSectionServices(servers.values());
    return servers;
  })();
  return loading;
}

/** A section's server part, once loaded; undefined for a section without one. */
export function sectionServer(key: string): SectionServer | undefined {
  if (!loading)
    throw new Error("sectionServer: the sections' server parts are not loaded (start the platform through app/boot)");
  return servers.get(key);
}

/** What a section adds to the transaction workspace (its columns, details rows, API fields). */
export function transactionExtensions(key: string) {
  return sectionServer(key)?.transactions;
}

/** A section's own columns' names (for the table fields it may show). */
export function sectionFieldNames(key: string): string[] {
  return (transactionExtensions(key)?.fields ?? []).map((field) => field.name);
}

/** The section that describes the filters of reports named `reportSection` (its own exports), if any. */
export function reportFilterDescriber(reportSection: string) {
  if (!loading)
    throw new Error(
      "reportFilterDescriber: the sections' server parts are not loaded (start the platform through app/boot)",
    );
  for (const server of servers.values()) {
    const describe = server.reportFilters?.[reportSection];
    if (describe) return describe;
  }
  return undefined;
}

/** The sections' pages served without the router, once their server parts are loaded. */
export function directPages() {
  if (!loading)
    throw new Error("directPages: the sections' server parts are not loaded (start the platform through app/boot)");
  return [...servers.values()].flatMap((server) => server.directPages ?? []);
}

/** Where a section sends the customer on from a payment's result page (contract `customerReturn`), if any does. */
export async function customerReturnUrl(
  db: DB,
  input: { transactionId: string; attemptId: string; result: CustomerResult; lang: Language },
): Promise<string | null> {
  if (!loading)
    throw new Error(
      "customerReturnUrl: the sections' server parts are not loaded (start the platform through app/boot)",
    );
  for (const server of servers.values()) {
    const url = await server.customerReturn?.(db, input);
    if (url) return url;
  }
  return null;
}
