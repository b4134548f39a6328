import type { SectionServer } from "./contract";

/**
 * What one section offers the others through the platform (contract `requestMaker`,
 * `collectorPayment`). The server parts are handed here once they are loaded, when the platform
 * starts (registry.server.ts `loadSectionServers`): a section asks for them here without importing
 * the module that loads every section, its own included.
 */
let offered:
  { requestMaker?: SectionServer["requestMaker"]; collectorPayment?: SectionServer["collectorPayment"] } | undefined;

export function offerSectionServices(servers: Iterable<SectionServer>) {
  offered = {};
  for (const server of servers) {
    offered.requestMaker ??= server.requestMaker;
    offered.collectorPayment ??= server.collectorPayment;
  }
}

/** The one section's way of making payment requests for the rest of the platform (contract `requestMaker`). */
export function requestMaker() {
  if (!offered)
    throw new Error("requestMaker: the sections' server parts are not loaded (start the platform through app/boot)");
  if (!offered.requestMaker) throw new Error("requestMaker: no built section makes payment requests");
  return offered.requestMaker;
}

/**
 * The one section's way of taking payments through collector pages for the rest of the platform
 * (contract `collectorPayment`); undefined while no built section offers it.
 */
export function collectorPayment() {
  if (!offered)
    throw new Error(
      "collectorPayment: the sections' server parts are not loaded (start the platform through app/boot)",
    );
  return offered.collectorPayment;
}
