import { route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The sandbox gateways' own pages and endpoints: stand-ins for external services. */
export const sandboxRoutes: RouteConfigEntry[] = [];

void route;
