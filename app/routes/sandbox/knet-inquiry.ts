import type { Route } from "./+types/knet-inquiry";
import { KNET_ACTIONS } from "~/domain/payments/gateways/knet-protocol";
import { answerKnetServerRequest } from "~/domain/sandbox/knet-payments.server";
import { getDbFrom } from "~/lib/request-context.server";

/** KNET's server-to-server inquiry (tranPipe action 8): form fields tranportalId and trandata, JSON answer. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === "string" ? value : null;
  };
  const answer = await answerKnetServerRequest(
    getDbFrom(context),
    { tranportalId: field("tranportalId"), trandata: field("trandata") },
    KNET_ACTIONS.inquiry,
  );
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}
