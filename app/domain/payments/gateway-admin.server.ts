import { errorField, log } from "~/lib/log.server";
import { engineOf, lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { sandboxEnabled } from "~/lib/env.server";
import { isSupportedCurrency, parseAmount, toDecimalString } from "~/lib/money";
import { list, named, refuse, word, type Refusal, type TextParams } from "~/lib/outcome";
import { seal, unseal } from "~/lib/sealed.server";
import { gatewayTargetsGuarded, isPublicHost } from "~/domain/integrations/webhook-targets.server";
import { listMerchantGateways, toGatewayConfig, type GatewayRow } from "./gateway-settings.server";
import { platformUrls } from "./attempts.server";
import { adapterFor, GATEWAY_KINDS, gatewayKind, isGatewayKind } from "./gateways/registry";
import type { CredentialField, GatewaySettings } from "./gateways/settings";

/**
 * The administration of a merchant's gateways: which ones customers see and in what order, in
 * which currencies, at what fee, capturing at once or later, test or live, and their credentials.
 * Credentials are write-only: sealed at rest (lib/sealed.server.ts), never read back to a page, an
 * API answer, a log or the audit log; staff see only that they are set and when. A gateway without
 * an endpoint of its own stands on this installation's sandbox, whose accounts the platform fills in.
 */

export const GATEWAY_KIND_KEYS = Object.keys(GATEWAY_KINDS);

const NO_SETTINGS: GatewaySettings = { credentials: [] };

/** What a kind asks of the merchant (gateways/registry.ts); an unknown kind asks nothing. */
export function settingsOf(kind: string): GatewaySettings {
  return isGatewayKind(kind) ? gatewayKind(kind).settings : NO_SETTINGS;
}

/** The credentials a kind asks for, as a form shows them. */
export function credentialFieldsOf(kind: string) {
  return settingsOf(kind).credentials.map(({ field, required, secret, hint }) => ({
    field,
    required,
    secret,
    hint: hint ?? null,
  }));
}

/**
 * The addresses the merchant gives the bank for a kind: one per leg the bank must know, each
 * followed by the attempt's id when the platform uses it (attempts.server.ts platformUrls).
 */
export function registeredAddresses(kind: string, publicBaseUrl: string): { leg: string; url: string }[] {
  const legs = settingsOf(kind).registeredLegs ?? [];
  // The bank calls this installation at its public address, notifications included.
  const urls = platformUrls(
    { publicBaseUrl, internalBaseUrl: publicBaseUrl, configuredBaseUrl: publicBaseUrl },
    "",
    kind,
  );
  return legs.map((leg) => ({ leg, url: urls[leg] }));
}

/** A gateway that calls out stands on the platform's sandbox until it has an address of its own. */
function standsOnSandbox(kind: string, endpoint: string | null) {
  return endpoint === null && !settingsOf(kind).offline;
}

/** The refusal of a typed credential the bank's documents rule out, if any. */
function credentialRefusal(entry: CredentialField, value: string): string | null {
  const tooShort = entry.minLength !== undefined && value.length < entry.minLength;
  const tooLong = entry.maxLength !== undefined && value.length > entry.maxLength;
  return tooShort || tooLong ? (entry.refusal ?? "admin.gateways.errors.credential_long") : null;
}

export type GatewayAdminView = {
  id: number;
  code: string;
  kind: string;
  name_en: string;
  name_ar: string;
  currencies: string[];
  fee_fixed: string;
  fee_percentage: string;
  fee_payer: "customer" | "merchant";
  capture_mode: "auto" | "manual";
  mode: "test" | "live";
  endpoint_url: string | null;
  enabled: boolean;
  sort_order: number;
  /** The platform's sandbox (no endpoint of its own): its credentials are the installation's. */
  uses_sandbox: boolean;
  credentials: { field: string; set: boolean }[];
  credentials_set_at: string | null;
};

function percentageOf(basisPoints: number) {
  return (basisPoints / 100).toFixed(2);
}

export function viewOf(row: GatewayRow): GatewayAdminView {
  const currencies = row.currencies
    .split(",")
    .map((code) => code.trim())
    .filter(Boolean);
  const stored = storedCredentials(row);
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    name_en: row.name_en,
    name_ar: row.name_ar,
    currencies,
    fee_fixed: toDecimalString(row.fee_fixed, currencies[0] ?? "KWD"),
    fee_percentage: percentageOf(row.fee_basis_points),
    fee_payer: row.fee_payer,
    capture_mode: row.capture_mode,
    mode: row.mode,
    endpoint_url: row.endpoint_url,
    enabled: Boolean(row.enabled),
    sort_order: row.sort_order,
    uses_sandbox: standsOnSandbox(row.kind, row.endpoint_url),
    credentials: settingsOf(row.kind).credentials.map((entry) => ({
      field: entry.field,
      set: Boolean(stored[entry.key]),
    })),
    credentials_set_at: row.credentials_set_at ? new Date(row.credentials_set_at as string).toISOString() : null,
  };
}

function storedCredentials(row: Pick<GatewayRow, "credentials" | "code">): Record<string, string> {
  try {
    return JSON.parse(unseal(row.credentials)) as Record<string, string>;
  } catch (error) {
    // Sealed under another key (CREDENTIALS_KEY changed, or the key file lost): shown as not set, to enter again.
    log.error(
      { gateway: row.code, error: errorField(error) },
      "a gateway's credentials cannot be opened with this installation's key",
    );
    return {};
  }
}

export async function listGatewaysForAdmin(db: DB, merchantId: number) {
  return (await listMerchantGateways(db, merchantId)).map(viewOf);
}

async function gatewayRow(db: DB, merchantId: number, id: number) {
  return (await listMerchantGateways(db, merchantId)).find((row) => row.id === id);
}

export async function findGatewayForAdmin(db: DB, merchantId: number, id: number) {
  const row = await gatewayRow(db, merchantId, id);
  return row && viewOf(row);
}

/** What a page or the API sends: strings as typed (missing: unchanged on an update). */
export type GatewayInput = Partial<{
  kind: string;
  code: string;
  name_en: string;
  name_ar: string;
  currencies: string[];
  fee_fixed: string;
  fee_percentage: string;
  fee_payer: string;
  capture_mode: string;
  mode: string;
  endpoint_url: string | null;
  enabled: boolean;
  credentials: Record<string, string>;
}>;

type Checked = {
  values: Partial<
    Omit<GatewayRow, "id" | "merchant_id" | "created_at" | "credentials" | "credentials_set_at" | "sort_order">
  >;
  credentials: Record<string, string> | null;
};

/**
 * Checks a new gateway (`current` undefined) or changes to one; codes are translation keys under
 * admin.gateways.errors. Credentials: fields left empty keep what is stored; a new gateway that
 * needs credentials gets all its required ones (or stands on the sandbox).
 */
export async function checkGatewayInput(
  input: GatewayInput,
  current?: GatewayRow,
): Promise<{ ok: true; checked: Checked } | { ok: false; errors: Record<string, string[]> }> {
  const errors: Record<string, string[]> = {};
  const values: Checked["values"] = {};
  const kind = current?.kind ?? input.kind ?? "";
  if (!current) {
    if (!isGatewayKind(kind)) errors.kind = ["admin.gateways.errors.kind"];
    else values.kind = kind;
    const code = (input.code ?? "").trim();
    if (!/^[a-z0-9][a-z0-9-]{1,39}$/.test(code)) errors.code = ["admin.gateways.errors.code"];
    else values.code = code;
  } else if (input.kind !== undefined && input.kind !== current.kind)
    errors.kind = ["admin.gateways.errors.kind_fixed"];
  for (const field of ["name_en", "name_ar"] as const) {
    const value = input[field];
    if (value === undefined) {
      if (!current) errors[field] = ["admin.gateways.errors.name"];
      continue;
    }
    const trimmed = value.trim();
    if (!trimmed || trimmed.length > 60) errors[field] = ["admin.gateways.errors.name"];
    else values[field] = trimmed;
  }
  const settings = settingsOf(kind);
  const only = settings.currencies;
  let currencies = current ? current.currencies.split(",") : [];
  if (input.currencies !== undefined || !current) {
    const chosen = [...new Set((input.currencies ?? []).map((code) => code.trim().toUpperCase()))];
    if (!chosen.length || !chosen.every(isSupportedCurrency)) errors.currencies = ["admin.gateways.errors.currencies"];
    else if (only && chosen.some((code) => !only.only.includes(code))) errors.currencies = [only.refusal];
    else {
      currencies = chosen;
      values.currencies = chosen.join(",");
    }
  }
  if (input.fee_fixed !== undefined) {
    const parsed = parseAmount(input.fee_fixed.trim() || "0", currencies[0] ?? "KWD");
    if (!parsed.ok) errors.fee_fixed = ["admin.gateways.errors.fee_fixed"];
    else values.fee_fixed = parsed.minor;
  }
  if (input.fee_percentage !== undefined) {
    const text = input.fee_percentage.trim() || "0";
    const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text);
    const basisPoints = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
    if (!match || basisPoints > 2000) errors.fee_percentage = ["admin.gateways.errors.fee_percentage"];
    else values.fee_basis_points = basisPoints;
  }
  if (input.fee_payer !== undefined) {
    if (input.fee_payer !== "customer" && input.fee_payer !== "merchant")
      errors.fee_payer = ["admin.gateways.errors.choice"];
    else values.fee_payer = input.fee_payer;
  }
  if (input.capture_mode !== undefined) {
    if (input.capture_mode !== "auto" && input.capture_mode !== "manual")
      errors.capture_mode = ["admin.gateways.errors.choice"];
    else if (
      input.capture_mode === "manual" &&
      !(GATEWAY_KINDS as Record<string, { operations: readonly string[] }>)[kind]?.operations.includes("capture")
    )
      errors.capture_mode = ["admin.gateways.errors.no_capture"];
    else values.capture_mode = input.capture_mode;
  }
  if (input.mode !== undefined) {
    if (input.mode !== "test" && input.mode !== "live") errors.mode = ["admin.gateways.errors.choice"];
    else values.mode = input.mode;
  }
  let endpoint = current?.endpoint_url ?? null;
  if (input.endpoint_url !== undefined) {
    const text = (input.endpoint_url ?? "").trim();
    if (!text) endpoint = null;
    else {
      let url: URL | null = null;
      try {
        url = new URL(text);
      } catch {}
      if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || text.length > 500)
        errors.endpoint_url = ["admin.gateways.errors.endpoint"];
      else if (gatewayTargetsGuarded() && !(await isPublicHost(url.hostname)))
        errors.endpoint_url = ["admin.gateways.errors.private"];
      else endpoint = text.replace(/\/+$/, "");
    }
    values.endpoint_url = endpoint;
  }
  const mode = values.mode ?? current?.mode ?? "test";
  const sandbox = standsOnSandbox(kind, endpoint);
  if (sandbox && !errors.endpoint_url) {
    if (mode === "live") errors.endpoint_url = ["admin.gateways.errors.live_needs_endpoint"];
    else if (!sandboxEnabled()) errors.endpoint_url = ["admin.gateways.errors.endpoint_required"];
  }
  if (input.enabled !== undefined) values.enabled = input.enabled ? 1 : 0;

  // Credentials: what is typed replaces what is stored, field by field.
  let credentials: Record<string, string> | null = null;
  const fields = settings.credentials;
  const typed = input.credentials ?? {};
  const unknown = Object.keys(typed).filter((name) => !fields.some((entry) => entry.field === name));
  if (unknown.length) errors.credentials = ["admin.gateways.errors.credential_unknown"];
  const entered = fields.filter((entry) => typeof typed[entry.field] === "string" && typed[entry.field].trim() !== "");
  if (entered.some((entry) => typed[entry.field].length > 500))
    errors.credentials = ["admin.gateways.errors.credential_long"];
  for (const entry of entered) {
    const refusal = credentialRefusal(entry, typed[entry.field].trim());
    if (refusal) errors[`credentials.${entry.field}`] = [refusal];
  }
  if (!sandbox && fields.length) {
    const endpointChanged =
      values.endpoint_url !== undefined && values.endpoint_url !== (current?.endpoint_url ?? null);
    // Credentials belong to the address they were entered for: a new address takes new ones, so
    // stored secrets (or the installation's sandbox accounts) are never sent anywhere else.
    const stored = current && !endpointChanged ? storedCredentials(current) : {};
    const merged = { ...stored };
    for (const entry of entered) merged[entry.key] = typed[entry.field].trim();
    const missing = fields.filter((entry) => entry.required && !merged[entry.key]);
    // Typed in part, or a new address without its credentials: the rest is asked for. A new gateway
    // may be added first and given its credentials on its own page; it cannot be turned on before.
    if (missing.length && (entered.length || (current && endpointChanged))) {
      for (const entry of missing) errors[`credentials.${entry.field}`] = ["admin.gateways.errors.credential_required"];
    }
    const turningOn = input.enabled === true || (input.enabled === undefined && Boolean(current?.enabled));
    if (missing.length && turningOn && !Object.keys(errors).some((key) => key.startsWith("credentials.")))
      errors.enabled = ["admin.gateways.errors.credentials_first"];
    if (entered.length || endpointChanged) credentials = merged;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, checked: { values, credentials } };
}

type Manager = { id: number; username: string; merchantId: number };

function audit(
  db: DB,
  manager: Manager,
  action: string,
  gateway: { id: number; name_en: string; name_ar: string },
  params: TextParams = {},
  ip?: string | null,
) {
  return recordAudit(db, {
    merchantId: manager.merchantId,
    actor: { id: manager.id, username: manager.username },
    action,
    params: { gateway: named(gateway.name_en, gateway.name_ar), ...params },
    objectType: "gateway",
    objectId: gateway.id,
    ip: ip ?? null,
  });
}

/** This installation's sandbox credentials for a kind of gateway (domain/sandbox, given by the caller). */
export type SandboxCredentials = (db: DB, kind: string) => Promise<Record<string, string> | undefined>;

/** The platform's sandbox credentials for a gateway without an endpoint, sealed; what was typed, sealed, otherwise. */
async function credentialsToStore(
  db: DB,
  sandbox: SandboxCredentials,
  kind: string,
  endpoint: string | null,
  typed: Record<string, string> | null,
) {
  if (standsOnSandbox(kind, endpoint)) return seal(JSON.stringify((await sandbox(db, kind)) ?? {}));
  return typed ? seal(JSON.stringify(typed)) : null;
}

export async function createGateway(
  db: DB,
  input: { manager: Manager; checked: Checked; sandbox: SandboxCredentials; ip?: string | null },
): Promise<{ ok: true; gateway: GatewayAdminView } | Refusal> {
  const values = input.checked.values;
  const kind = values.kind!;
  const endpoint = values.endpoint_url ?? null;
  const sealed = await credentialsToStore(db, input.sandbox, kind, endpoint, input.checked.credentials);
  return writeTransaction(db, async (trx) => {
    const taken = await trx
      .selectFrom("gateways")
      .select("id")
      .where("merchant_id", "=", input.manager.merchantId)
      .where("code", "=", values.code!)
      .executeTakeFirst();
    if (taken) return refuse("admin.gateways.errors.code_taken", { field: "code" });
    const last = await trx
      .selectFrom("gateways")
      .select((eb) => eb.fn.max("sort_order").as("last"))
      .where("merchant_id", "=", input.manager.merchantId)
      .executeTakeFirst();
    const created = nowIso();
    const row = await trx
      .insertInto("gateways")
      .values({
        merchant_id: input.manager.merchantId,
        code: values.code!,
        kind,
        name_en: values.name_en!,
        name_ar: values.name_ar!,
        logo_url: `/gateways/${kind}.svg`,
        currencies: values.currencies!,
        endpoint_url: endpoint,
        credentials: sealed ?? seal("{}"),
        credentials_set_at: input.checked.credentials ? created : null,
        fee_fixed: values.fee_fixed ?? 0,
        fee_basis_points: values.fee_basis_points ?? 0,
        fee_payer: values.fee_payer ?? "merchant",
        capture_mode: values.capture_mode ?? "auto",
        mode: values.mode ?? "test",
        // A new gateway is off until its staff turn it on (after testing the connection).
        enabled: values.enabled ?? 0,
        sort_order: Number(last?.last ?? 0) + 1,
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await audit(
      trx,
      input.manager,
      "gateway_created",
      { id: row.id, name_en: values.name_en!, name_ar: values.name_ar! },
      {},
      input.ip,
    );
    if (input.checked.credentials)
      await audit(
        trx,
        input.manager,
        "gateway_credentials_set",
        { id: row.id, name_en: values.name_en!, name_ar: values.name_ar! },
        {},
        input.ip,
      );
    return { ok: true as const, gateway: viewOf((await gatewayRow(trx, input.manager.merchantId, row.id))!) };
  });
}

const FIELD_LABELS: Record<string, string> = {
  name_en: "name_en",
  name_ar: "name_ar",
  currencies: "currencies",
  fee_fixed: "fee_fixed",
  fee_basis_points: "fee_percentage",
  fee_payer: "fee_payer",
  capture_mode: "capture_mode",
  mode: "mode",
  endpoint_url: "endpoint_url",
};

/** Writes the changes that differ; one audit entry names the changed fields, another says credentials were entered (never which values). */
export async function updateGateway(
  db: DB,
  input: { manager: Manager; id: number; checked: Checked; sandbox: SandboxCredentials; ip?: string | null },
): Promise<{ ok: true; gateway: GatewayAdminView; changed: string[] } | Refusal> {
  const current = await gatewayRow(db, input.manager.merchantId, input.id);
  if (!current) return refuse("admin.gateways.errors.not_found");
  const endpoint =
    input.checked.values.endpoint_url !== undefined ? input.checked.values.endpoint_url : current.endpoint_url;
  const endpointChanged = endpoint !== current.endpoint_url;
  const sealed =
    input.checked.credentials || (endpointChanged && endpoint === null)
      ? await credentialsToStore(db, input.sandbox, current.kind, endpoint, input.checked.credentials)
      : null;
  return writeTransaction(db, async (trx) => {
    if (engineOf(trx) === "postgres")
      await trx.selectFrom("gateways").select("id").where("id", "=", current.id).forUpdate().execute();
    const set: Record<string, unknown> = {};
    const changed: string[] = [];
    for (const [column, value] of Object.entries(input.checked.values)) {
      if (column === "enabled") continue;
      if (value !== (current as Record<string, unknown>)[column]) {
        set[column] = value;
        if (FIELD_LABELS[column]) changed.push(FIELD_LABELS[column]);
      }
    }
    if (sealed) {
      set.credentials = sealed;
      if (input.checked.credentials) set.credentials_set_at = nowIso();
    }
    if (input.checked.values.enabled !== undefined && input.checked.values.enabled !== current.enabled)
      set.enabled = input.checked.values.enabled;
    if (Object.keys(set).length) await trx.updateTable("gateways").set(set).where("id", "=", current.id).execute();
    const names = {
      id: current.id,
      name_en: (set.name_en as string) ?? current.name_en,
      name_ar: (set.name_ar as string) ?? current.name_ar,
    };
    if (changed.length)
      await audit(
        trx,
        input.manager,
        "gateway_changed",
        names,
        { fields: list(changed.map((field) => word(`admin.gateways.fields.${field}`))) },
        input.ip,
      );
    if (input.checked.credentials) await audit(trx, input.manager, "gateway_credentials_set", names, {}, input.ip);
    if (set.enabled !== undefined)
      await audit(trx, input.manager, set.enabled ? "gateway_enabled" : "gateway_disabled", names, {}, input.ip);
    return {
      ok: true as const,
      gateway: viewOf((await gatewayRow(trx, input.manager.merchantId, current.id))!),
      changed,
    };
  });
}

/** Moves a gateway one place up or down in the order customers see them. */
export async function moveGateway(
  db: DB,
  input: { manager: Manager; id: number; direction: "up" | "down"; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, input.manager.merchantId);
    const rows = await listMerchantGateways(trx, input.manager.merchantId);
    const index = rows.findIndex((row) => row.id === input.id);
    if (index < 0) return refuse("admin.gateways.errors.not_found");
    const other = input.direction === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= rows.length) return { ok: true as const };
    const order = rows.map((row) => row.id);
    [order[index], order[other]] = [order[other], order[index]];
    for (const [position, id] of order.entries())
      await trx
        .updateTable("gateways")
        .set({ sort_order: position + 1 })
        .where("id", "=", id)
        .execute();
    await audit(trx, input.manager, "gateway_reordered", rows[index], {}, input.ip);
    return { ok: true as const };
  });
}

/**
 * "Test connection": an inquiry the gateway must answer with these credentials, for a payment
 * that does not exist. What happened is said in the reader's words and written in the audit log.
 */
export async function testGatewayConnection(
  db: DB,
  input: {
    manager: Manager;
    id: number;
    platform: { publicBaseUrl: string; internalBaseUrl: string };
    ip?: string | null;
  },
): Promise<
  { ok: true; result: "connected" | "refused" | "unreachable" | "nothing_to_test"; detail: string } | Refusal
> {
  const row = await gatewayRow(db, input.manager.merchantId, input.id);
  if (!row) return refuse("admin.gateways.errors.not_found");
  const adapter = adapterFor(row.kind);
  let result: "connected" | "refused" | "unreachable" | "nothing_to_test" = "nothing_to_test";
  let detail = "";
  if (adapter.testConnection) {
    try {
      const answer = await adapter.testConnection(toGatewayConfig(row, input.platform));
      result = answer.ok ? "connected" : "refused";
      detail = answer.detail;
    } catch (error) {
      result = "unreachable";
      detail = error instanceof Error ? error.message : String(error);
    }
  }
  // Nothing secret reaches the words: adapters describe answers, never credentials.
  detail = detail.slice(0, 300);
  await audit(db, input.manager, "gateway_tested", row, { result: word(`admin.gateways.test.${result}`) }, input.ip);
  return { ok: true as const, result, detail };
}
