import { errorField, log } from "~/lib/log.server";
import { gatewayCallDuration, gatewayCallErrors } from "~/lib/metrics.server";
import type { GatewayAdapter } from "./gateway";

/** The adapter's calls to its gateway, each timed, counted and logged (gateway, operation, outcome, duration; never what was sent). */
const CALLS = [
  "start",
  "inquire",
  "capture",
  "refund",
  "void",
  "inquireOperation",
  "listSettlements",
  "testConnection",
  "payWithWallet",
] as const;

/** A refusal is an answer (`ok: false`); a throw is an error: unreachable, timed out, or an answer that could not be read. */
function outcomeOf(result: unknown) {
  return result !== null && typeof result === "object" && (result as { ok?: unknown }).ok === false ? "refused" : "ok";
}

export function observed(kind: string, adapter: GatewayAdapter): GatewayAdapter {
  const wrapped: GatewayAdapter = { ...adapter };
  for (const operation of CALLS) {
    const call = adapter[operation] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (!call) continue;
    (wrapped as unknown as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const result = await call.apply(adapter, args);
        const outcome = outcomeOf(result);
        const duration = seconds();
        gatewayCallDuration.observe({ gateway: kind, operation, outcome }, duration);
        log.info({ gateway: kind, operation, outcome, duration_ms: Math.round(duration * 1000) }, "gateway call");
        return result;
      } catch (error) {
        const duration = seconds();
        gatewayCallDuration.observe({ gateway: kind, operation, outcome: "error" }, duration);
        gatewayCallErrors.inc({ gateway: kind, operation });
        log.warn(
          {
            gateway: kind,
            operation,
            outcome: "error",
            duration_ms: Math.round(duration * 1000),
            error: errorField(error),
          },
          "gateway call failed",
        );
        throw error;
      }
    };
  }
  return wrapped;
}
