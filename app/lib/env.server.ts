import net from "node:net";
import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false"])
  .optional()
  .transform((value) => value === "1" || value === "true");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  BASE_URL: z
    .url({ message: "must be an absolute http(s) URL such as https://pay.example.com" })
    .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
    .optional(),
  DATABASE_URL: z
    .string()
    .refine(
      (value) => /^postgres(ql)?:\/\//.test(value),
      "must be a postgres:// URL; leave it unset to use the SQLite file",
    )
    .optional(),
  SQLITE_PATH: z.string().min(1).default("./data/platform.sqlite"),
  /** How this server reaches itself (its sandbox gateways); default http://127.0.0.1:PORT. */
  INTERNAL_BASE_URL: z.url({ message: "must be an absolute http(s) URL" }).optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters (use: openssl rand -hex 32)").optional(),
  /**
   * The key that seals gateway credentials and webhook secrets at rest (lib/sealed.server.ts).
   * Unset: a key file beside the SQLite file (credentials.key), made on first use.
   */
  CREDENTIALS_KEY: z.string().min(32, "must be at least 32 characters (use: openssl rand -hex 32)").optional(),
  /** Lets webhook endpoints point at loopback and private addresses (tests, a receiver on the same network). */
  WEBHOOK_ALLOW_PRIVATE: booleanFlag,
  /** How many times a webhook event is tried on an endpoint before it is given up. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number({ message: "must be a number" }).int().min(1).max(20).default(8),
  SMTP_URL: z
    .string()
    .refine((value) => /^smtps?:\/\//.test(value), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Payments <no-reply@localhost>"),
  SUPPORT_EMAIL: z.email({ message: "must be an email address" }).default("support@localhost"),
  UPLOADS_DIR: z.string().min(1).default("./data/uploads"),
  /** A MapLibre style URL for the delivery map; unset, customers give coordinates instead. */
  MAP_STYLE_URL: z.url({ message: "must be an absolute http(s) URL of a MapLibre style" }).optional(),
  /** Unset: seed the demo merchant on an empty SQLite database, never on Postgres. */
  SEED_DEMO: z.enum(["0", "1", "true", "false"], { message: "must be 1 or 0" }).optional(),
  /**
   * The platform's own KNET and card sandboxes (demo and test mode). Unset: on in demo mode (the
   * embedded SQLite installation, unless SEED_DEMO=0), off otherwise.
   */
  SANDBOX: z.enum(["0", "1", "true", "false"], { message: "must be 1 or 0" }).optional(),
  /** The demo merchant's first payments, made on the sandboxes after the first start (DEMO_ACTIVITY=0: an empty demo). */
  DEMO_ACTIVITY: z.enum(["0", "1", "true", "false"], { message: "must be 1 or 0" }).optional(),
  /**
   * Which proxies in front may name the client in X-Forwarded-For (docs/decisions/0036): unset or 0,
   * none; a number, that many hops (1: the rightmost entry, which the one proxy in front appended, is
   * the client); or a comma-separated list of the proxies' addresses or CIDR ranges. "true" (trust
   * every entry, the client's own included) is refused.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.setting;
      context.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }),
  TEST_CLOCK: booleanFlag,
  /**
   * What this process does: `web` serves HTTP, `worker` runs the background jobs, `all` (the
   * embedded default) both. Unset, WORKER=off means web.
   */
  ROLE: z.enum(["web", "worker", "all"], { message: "must be web, worker or all" }).optional(),
  WORKER: z.enum(["on", "off"]).default("on"),
  /** How long a maker's refund, capture or void waits for a checker before it expires. */
  OPERATION_REQUEST_TTL_HOURS: z.coerce
    .number({ message: "must be a number of hours" })
    .int()
    .min(1)
    .max(24 * 90)
    .default(48),
  /**
   * How long the reconciler leaves a payment attempt to its customer and gateway, and a refund,
   * capture or void to the request that sent it, before asking the gateway itself.
   */
  RECONCILER_GRACE_SECONDS: z.coerce
    .number({ message: "must be a number of seconds" })
    .int()
    .min(1)
    .max(3600)
    .default(120),
  /**
   * The most a customer may be asked to pay on a request with an editable amount, in whole units of
   * the request's currency (10000: KWD 10,000.000); a request's maximum is never above it.
   */
  EDITABLE_AMOUNT_CAP: z
    .string()
    .regex(/^\d{1,9}$/, "must be a whole number of currency units, such as 10000")
    .refine((value) => Number(value) > 0, "must be above 0")
    .default("10000"),
  /** Where generated reports are kept. */
  REPORTS_DIR: z.string().min(1).default("./data/reports"),
  /** Set: uploads and reports go to this S3-compatible bucket instead of UPLOADS_DIR and REPORTS_DIR (decision 0034). */
  S3_BUCKET: z.string().min(1).optional(),
  /** An S3-compatible service's address (MinIO, R2, Spaces...); unset: AWS S3 in S3_REGION. */
  S3_ENDPOINT: z
    .url({ message: "must be an absolute http(s) URL such as https://s3.example.com" })
    .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
    .optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Unset, both: the AWS SDK's own credentials (an instance role, AWS_* variables). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path rather than the host name; unset: on with S3_ENDPOINT, off for AWS. */
  S3_FORCE_PATH_STYLE: z
    .enum(["0", "1", "true", "false"], { message: "must be 1 or 0" })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "1" || value === "true")),
  /** Where in the bucket this installation's files go, e.g. `pay/production`. */
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._\-/]+$/, "must hold only letters, digits, '.', '_', '-' and '/'")
    .refine(
      (value) => !value.split("/").some((segment) => segment === "." || segment === ".."),
      "must not hold . or .. segments",
    )
    .optional(),
  /**
   * The most messages a bulk of payment requests sends a second (a text-message provider's or a
   * mail relay's limit). Unset: as fast as the outbox takes them.
   */
  BULK_SEND_PER_SECOND: z.coerce
    .number({ message: "must be a number of messages a second" })
    .int()
    .min(1)
    .max(100_000)
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/** Reads and validates the environment once; a bad variable stops the boot with a message per variable. */
export function env(): Env {
  if (cached) return cached;
  const source = Object.fromEntries(
    Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = EnvSchema.superRefine((config, context) => {
    // Instances on one Postgres share their sealed secrets: they need the same key, from the environment.
    if (config.DATABASE_URL && !config.CREDENTIALS_KEY) {
      context.addIssue({
        code: "custom",
        path: ["CREDENTIALS_KEY"],
        message: "must be set when DATABASE_URL is (every instance the same; use: openssl rand -hex 32)",
      });
    }
    // Half a bucket configuration would quietly keep files on this instance's disk.
    const s3Settings = [
      "S3_ENDPOINT",
      "S3_ACCESS_KEY_ID",
      "S3_SECRET_ACCESS_KEY",
      "S3_PREFIX",
      "S3_FORCE_PATH_STYLE",
    ] as const;
    const s3Given = s3Settings.filter((name) => config[name] !== undefined);
    if (!config.S3_BUCKET && s3Given.length > 0) {
      context.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: `must be set when ${s3Given.join(", ")} ${s3Given.length > 1 ? "are" : "is"}`,
      });
    }
    if (!config.S3_ACCESS_KEY_ID !== !config.S3_SECRET_ACCESS_KEY) {
      context.addIssue({
        code: "custom",
        path: [config.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message:
          "must be set too: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the SDK's own credentials)",
      });
    }
  }).safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  cached = parsed;
  return parsed;
}

/** What this process runs: HTTP, the background worker, or both. */
export function roleOf(config: Env): "web" | "worker" | "all" {
  return config.ROLE ?? (config.WORKER === "off" ? "web" : "all");
}

/** Whether this installation is a demo: it seeds the demo merchant (SEED_DEMO; unset, on SQLite only). */
export function demoMode(config: Env = env()): boolean {
  if (config.SEED_DEMO !== undefined) return config.SEED_DEMO === "1" || config.SEED_DEMO === "true";
  return !config.DATABASE_URL;
}

/**
 * Whether this installation runs the sandbox gateways (SANDBOX; decision 0014). Unset: only the
 * embedded SQLite demo — never on a DATABASE_URL installation, even one seeded with the demo merchant.
 */
export function sandboxEnabled(config: Env = env()): boolean {
  if (config.SANDBOX !== undefined) return config.SANDBOX === "1" || config.SANDBOX === "true";
  return !config.DATABASE_URL && demoMode(config);
}

/** Whether a new demo merchant gets its first payments (needs the sandboxes to make them on). */
export function demoActivityEnabled(config: Env = env()): boolean {
  return sandboxEnabled(config) && config.DEMO_ACTIVITY !== "0" && config.DEMO_ACTIVITY !== "false";
}

/** For tests that change the environment between cases. */
export function resetEnvCache() {
  cached = undefined;
}

export type TrustProxySetting = false | number | string[];

const TRUST_PROXY_HELP =
  "must be 0, the number of proxies in front (1 behind one proxy such as fly.io's, Caddy or nginx), or a comma-separated list of the proxies' addresses or CIDR ranges";

/**
 * TRUST_PROXY as Express's "trust proxy" takes it: false, a hop count, or the proxies' addresses.
 * Never `true`: with it the leftmost X-Forwarded-For entry, which the client writes itself, becomes
 * the client's address.
 */
export function parseTrustProxy(
  raw: string | undefined,
): { ok: true; setting: TrustProxySetting } | { ok: false; message: string } {
  const value = (raw ?? "").trim();
  if (value === "" || value === "0" || value === "false") return { ok: true, setting: false };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) return { ok: false, message: TRUST_PROXY_HELP };
    return { ok: true, setting: hops };
  }
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || !entries.every(isAddressOrRange)) return { ok: false, message: TRUST_PROXY_HELP };
  return { ok: true, setting: entries };
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split("/");
  if (rest.length > 0) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
