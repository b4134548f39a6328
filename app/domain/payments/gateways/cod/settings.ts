import type { GatewaySettings } from "../settings";

export const codSettings: GatewaySettings = { credentials: [], offline: true };
