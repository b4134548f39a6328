import { data, redirect } from "react-router";
import type { Route } from "./+types/knet-payment-init";
import { SandboxFrame } from "./components/sandbox-frame";
import { initKnetPayment, type KnetInitResult } from "~/domain/sandbox/knet-payments.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

type InitError = Extract<KnetInitResult, { ok: false }>["error"];

const MESSAGES: Record<InitError, string> = {
  unknown_terminal: "Unknown tranportal id.",
  invalid_trandata: "The trandata could not be decrypted with this terminal's resource key.",
  invalid_credentials: "The tranportal id or password in the trandata is wrong.",
  invalid_request: "The payment request is incomplete or not supported (purchase in KWD only).",
};

/** KNET's kpg/PaymentHTTP.htm?param=paymentInit: opens the payment, then shows KNET's own page for it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireSandbox();
  const opened = await initKnetPayment(
    getDbFrom(context),
    new URL(request.url).searchParams,
    new URL(request.url).origin,
  );
  if (!opened.ok) return data({ error: opened.error }, { status: 400, headers: { "Cache-Control": "no-store" } });
  const page = new URLSearchParams({ PaymentID: opened.paymentId, token: opened.pageToken });
  return redirect(`/sandbox/knet/paymentpage.htm?${page}`, 303);
}

export default function KnetPaymentInit({ loaderData }: Route.ComponentProps) {
  return (
    <SandboxFrame gateway="KNET" lang="en" title="Payment request refused" tone="error">
      {MESSAGES[loaderData.error]}
    </SandboxFrame>
  );
}

export function meta() {
  return [{ title: "KNET Sandbox" }];
}
