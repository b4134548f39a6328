import type { ActionFunctionArgs } from "react-router";
import { answerKnetServerRequest } from "~/domain/sandbox/knet-payments.server";
import { getDbFrom } from "~/web/request-context.server";

/** A KNET server-to-server endpoint (tranPipe): form fields tranportalId and trandata, JSON answer. */
export function knetServerAction(knetAction: Parameters<typeof answerKnetServerRequest>[2]) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const form = await request.formData().catch(() => null);
    const field = (name: string) => {
      const value = form?.get(name);
      return typeof value === "string" ? value : null;
    };
    const answer = await answerKnetServerRequest(
      getDbFrom(context),
      { tranportalId: field("tranportalId"), trandata: field("trandata") },
      knetAction,
    );
    return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
  };
}
