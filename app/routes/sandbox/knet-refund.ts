import { KNET_ACTIONS } from "~/domain/payments/gateways/knet-protocol";
import { knetServerAction } from "./components/knet-server-endpoint.server";

/** KNET's server-to-server refund (tranPipe action 2). */
export const action = knetServerAction(KNET_ACTIONS.refund);
