import type { ActionFunctionArgs } from "react-router";
import { answerKnetServerRequest } from "~/domain/sandbox/knet-payments.server";
import { requireSandbox } from "~/web/sandbox-mode.server";
import { getDbFrom } from "~/web/request-context.server";

/** What the gateway answers when it answers nothing encrypted, as a real tranPipe host would. */
const FAILURES = {
  unknown_terminal: { status: 401, error: "Unknown tranportal id" },
  invalid_credentials: { status: 401, error: "Invalid tranportal id or password" },
  invalid_trandata: { status: 400, error: "trandata cannot be decrypted with this terminal's resource key" },
} as const;

/** A KNET server-to-server endpoint (tranPipe): form fields tranportalId and trandata, JSON answer. */
export function knetServerAction(knetAction: Parameters<typeof answerKnetServerRequest>[2]) {
  return async ({ request, context }: ActionFunctionArgs) => {
    requireSandbox();
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
    const headers = { "Cache-Control": "no-store" };
    if (answer.ok) return Response.json({ trandata: answer.trandata }, { headers });
    if (answer.code === "wrong_action") return Response.json({ error: `This endpoint takes action ${knetAction}` }, { status: 400, headers });
    const failure = FAILURES[answer.code];
    return Response.json({ error: failure.error }, { status: failure.status, headers });
  };
}
