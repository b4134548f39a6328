import { KNET_ACTIONS } from "~/domain/payments/gateways/knet-protocol";
import { knetServerAction } from "./components/knet-server-endpoint.server";

/** KNET's server-to-server inquiry (tranPipe action 8). */
export const action = knetServerAction(KNET_ACTIONS.inquiry);
