import client from "prom-client";

/**
 * The platform's metrics in the Prometheus format (`/metrics`, docs/decisions/0043): counters and
 * histograms are written where things happen; the gauges that are facts in the database (queue
 * depth, oldest job, undelivered webhooks, open differences) are read when scraped, by the
 * collectors the start-up registers (`registerCollector`). One registry per process.
 */
export const metrics = new client.Registry();
client.collectDefaultMetrics({ register: metrics, prefix: "kp_" });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpDuration = new client.Histogram({
  name: "kp_http_request_duration_seconds",
  help: "Time to answer a request, by route id, method and status.",
  labelNames: ["route", "method", "status"] as const,
  buckets: SECONDS,
  registers: [metrics],
});

export const paymentsStarted = new client.Counter({
  name: "kp_payments_started_total",
  help: "Payment attempts sent to a gateway, by gateway kind.",
  labelNames: ["gateway"] as const,
  registers: [metrics],
});

export const paymentsCompleted = new client.Counter({
  name: "kp_payments_completed_total",
  help: "Payment attempts settled, by gateway kind and result (success, authorized, failed, canceled, error).",
  labelNames: ["gateway", "result"] as const,
  registers: [metrics],
});

export const gatewayCallDuration = new client.Histogram({
  name: "kp_gateway_call_duration_seconds",
  help: "Calls to a gateway, by gateway kind, operation and outcome (ok, refused, error).",
  labelNames: ["gateway", "operation", "outcome"] as const,
  buckets: SECONDS,
  registers: [metrics],
});

export const gatewayCallErrors = new client.Counter({
  name: "kp_gateway_call_errors_total",
  help: "Calls to a gateway that failed (unreachable, timed out, an answer it could not read), by gateway kind and operation.",
  labelNames: ["gateway", "operation"] as const,
  registers: [metrics],
});

export const webhookDeliveries = new client.Counter({
  name: "kp_webhook_deliveries_total",
  help: "Tries to deliver a webhook event to a merchant's endpoint, by outcome (succeeded, failed, skipped).",
  labelNames: ["outcome"] as const,
  registers: [metrics],
});

/** A gauge whose value is read when scraped; `read` answers label sets and values. */
export function registerCollector(
  name: string,
  help: string,
  labelNames: readonly string[],
  read: () => Promise<{ labels?: Record<string, string>; value: number }[]>,
) {
  metrics.removeSingleMetric(name);
  return new client.Gauge({
    name,
    help,
    labelNames: [...labelNames],
    registers: [metrics],
    async collect() {
      this.reset();
      for (const { labels, value } of await read()) {
        if (labels) this.set(labels, value);
        else this.set(value);
      }
    },
  });
}

/** The exposition text and its content type. */
export async function metricsExposition() {
  return { contentType: metrics.contentType, body: await metrics.metrics() };
}
