import { errorField, log } from "~/lib/log.server";
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { DB } from "~/db/database.server";
import { guardedFetch } from "~/domain/integrations/guarded-fetch.server";
import { now, nowIso } from "~/lib/clock.server";
import { sandboxEnabled } from "~/lib/env.server";
import { refuse, type Refusal } from "~/lib/outcome";
import { seal, unseal } from "~/lib/sealed.server";

/**
 * The installation's wallet settings (decision 0039). Apple Pay on the web belongs to the domain
 * the pay pages are served from, so to the installation: one merchant identifier, its domain
 * association file, and the merchant identity certificate that proves the platform to Apple.
 */

const SETTINGS_ID = 1;

export type WalletSettingsView = {
  appleMerchantIdentifier: string;
  appleDisplayName: string;
  hasDomainAssociation: boolean;
  /** The certificate's subject and expiry, never the key. */
  certificate: { subject: string; validTo: string } | null;
  googleMerchantId: string;
};

async function readRow(db: DB) {
  return db
    .selectFrom("wallet_settings")
    .select([
      "apple_merchant_identifier",
      "apple_display_name",
      "apple_domain_association",
      "apple_identity_certificate",
      "apple_identity_key",
      "google_merchant_id",
    ])
    .where("id", "=", SETTINGS_ID)
    .executeTakeFirst();
}

/** What the operator's page shows. */
export async function walletSettingsView(db: DB): Promise<WalletSettingsView> {
  const row = await readRow(db);
  const certificate = row?.apple_identity_certificate
    ? new X509Certificate(unseal(row.apple_identity_certificate))
    : null;
  return {
    appleMerchantIdentifier: row?.apple_merchant_identifier ?? "",
    appleDisplayName: row?.apple_display_name ?? "",
    hasDomainAssociation: Boolean(row?.apple_domain_association),
    certificate: certificate
      ? { subject: certificate.subject.replace(/\n/g, ", "), validTo: new Date(certificate.validTo).toISOString() }
      : null,
    googleMerchantId: row?.google_merchant_id ?? "",
  };
}

/** Apple Pay as the pay page needs it: set up whole, or not at all. */
export type ApplePaySetup = { merchantIdentifier: string; displayName: string; certificate: string; key: string };

export async function applePaySetup(db: DB): Promise<ApplePaySetup | null> {
  const row = await readRow(db);
  if (
    !row?.apple_merchant_identifier ||
    !row.apple_display_name ||
    !row.apple_identity_certificate ||
    !row.apple_identity_key
  )
    return null;
  return {
    merchantIdentifier: row.apple_merchant_identifier,
    displayName: row.apple_display_name,
    certificate: unseal(row.apple_identity_certificate),
    key: unseal(row.apple_identity_key),
  };
}

/** Google Pay's merchant id; absent, Google Pay runs in its TEST environment, which charges nothing. */
export async function googleMerchantId(db: DB): Promise<string | null> {
  return (await readRow(db))?.google_merchant_id ?? null;
}

/** The domain association file as Apple gave it, or null. */
export async function domainAssociationFile(db: DB): Promise<string | null> {
  return (await readRow(db))?.apple_domain_association ?? null;
}

export type WalletSettingsInput = {
  appleMerchantIdentifier: string;
  appleDisplayName: string;
  /** Empty: the stored file is kept (a file is replaced, not edited). */
  appleDomainAssociation: string;
  /** Empty, with the key: the stored ones are kept. */
  appleCertificate: string;
  appleKey: string;
  googleMerchantId: string;
  /** Removes the domain association file. */
  removeDomainAssociation?: boolean;
};

const MERCHANT_IDENTIFIER = /^merchant\.[A-Za-z0-9][A-Za-z0-9.-]{0,120}$/;
const GOOGLE_MERCHANT_ID = /^[A-Za-z0-9]{5,40}$/;
/** Apple's files are a few kilobytes of hexadecimal. */
const MAX_ASSOCIATION = 64 * 1024;
const MAX_PEM = 32 * 1024;

/**
 * Saves the settings; refused whole, with the first wrong field. The certificate must be one with
 * its key, not expired: Apple refuses a merchant session to anything else, and the customer would
 * learn it at the payment sheet.
 */
export async function saveWalletSettings(db: DB, input: WalletSettingsInput): Promise<{ ok: true } | Refusal> {
  const identifier = input.appleMerchantIdentifier.trim();
  const displayName = input.appleDisplayName.trim();
  const google = input.googleMerchantId.trim();
  if (identifier && !MERCHANT_IDENTIFIER.test(identifier))
    return refuse("operator.wallets.errors.merchant_identifier", { field: "apple_merchant_identifier" });
  if (Array.from(displayName).length > 64)
    return refuse("operator.wallets.errors.display_name", { field: "apple_display_name" });
  if (identifier && !displayName)
    return refuse("operator.wallets.errors.display_name", { field: "apple_display_name" });
  const association = input.appleDomainAssociation.trim();
  if (association.length > MAX_ASSOCIATION)
    return refuse("operator.wallets.errors.association", { field: "apple_domain_association" });
  if (google && !GOOGLE_MERCHANT_ID.test(google))
    return refuse("operator.wallets.errors.google_merchant_id", { field: "google_merchant_id" });
  const certificate = input.appleCertificate.trim();
  const key = input.appleKey.trim();
  if (Boolean(certificate) !== Boolean(key))
    return refuse("operator.wallets.errors.certificate_pair", {
      field: certificate ? "apple_key" : "apple_certificate",
    });
  if (certificate) {
    const checked = checkIdentity(certificate, key);
    if (checked) return refuse(checked.code, { field: checked.field });
  }
  const existing = await readRow(db);
  if (identifier && !certificate && !existing?.apple_identity_certificate)
    return refuse("operator.wallets.errors.certificate_missing", { field: "apple_certificate" });
  const values = {
    apple_merchant_identifier: identifier || null,
    apple_display_name: displayName || null,
    apple_domain_association: input.removeDomainAssociation
      ? null
      : association
        ? input.appleDomainAssociation
        : (existing?.apple_domain_association ?? null),
    apple_identity_certificate: certificate ? seal(certificate) : (existing?.apple_identity_certificate ?? null),
    apple_identity_key: key ? seal(key) : (existing?.apple_identity_key ?? null),
    google_merchant_id: google || null,
    updated_at: nowIso(),
  };
  await db
    .insertInto("wallet_settings")
    .values({ id: SETTINGS_ID, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
  return { ok: true };
}

function checkIdentity(certificatePem: string, keyPem: string): { code: string; field: string } | null {
  if (certificatePem.length > MAX_PEM || keyPem.length > MAX_PEM)
    return { code: "operator.wallets.errors.certificate", field: "apple_certificate" };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return { code: "operator.wallets.errors.certificate", field: "apple_certificate" };
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    return { code: "operator.wallets.errors.key", field: "apple_key" };
  }
  if (!certificate.checkPrivateKey(key))
    return { code: "operator.wallets.errors.certificate_pair", field: "apple_key" };
  if (Date.parse(certificate.validTo) <= now().getTime())
    return { code: "operator.wallets.errors.certificate_expired", field: "apple_certificate" };
  return null;
}

/** Apple's payment gateway hosts (Apple Pay on the Web: merchant validation), the China mainland ones included. */
const APPLE_GATEWAY_HOST = /^(cn-)?apple-pay-gateway(-[a-z0-9-]+)?\.apple\.com$/;

/** The path of this platform's stand-in for Apple's merchant validation (sandbox mode only). */
export const APPLE_SANDBOX_PATH = "/sandbox/apple-pay/paymentservices/paymentSession";

/**
 * Whether a validation URL the page was given may be called: https on one of Apple's payment gateway
 * hosts, on the default port, with no credentials; or, in sandbox mode, the platform's own stand-in.
 * Anything else (a URL the browser made up to make this server call it) is refused.
 */
export function isApplePayValidationUrl(value: string, sandboxOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "https:" && url.port === "" && APPLE_GATEWAY_HOST.test(url.hostname)) return true;
  return sandboxEnabled() && sandboxOrigins.includes(url.origin) && url.pathname === APPLE_SANDBOX_PATH && !url.search;
}

/** The most of Apple's answer kept: a merchant session is about a kilobyte. */
const MAX_SESSION = 64 * 1024;

export type MerchantSessionOutcome = { ok: true; session: unknown } | Refusal;

/**
 * Apple Pay's merchant validation, asked by the pay page through this server (the certificate never
 * leaves it): Apple's URL, called with the merchant identity certificate (mutual TLS), answers an
 * opaque merchant session the page hands to Safari. In sandbox mode Apple is never called: its
 * stand-in on this platform answers instead.
 */
export async function requestMerchantSession(
  db: DB,
  input: { validationUrl: string; domain: string; sandboxOrigins: readonly string[]; internalBaseUrl: string },
): Promise<MerchantSessionOutcome> {
  if (!isApplePayValidationUrl(input.validationUrl, input.sandboxOrigins))
    return refuse("pay.errors.wallet_validation_url", { field: "validation_url" });
  const setup = await applePaySetup(db);
  if (!setup) return refuse("pay.errors.wallet_unavailable");
  const body = JSON.stringify({
    merchantIdentifier: setup.merchantIdentifier,
    displayName: setup.displayName,
    initiative: "web",
    initiativeContext: input.domain,
  });
  const sandbox = sandboxEnabled();
  let response: Response;
  try {
    response = sandbox
      ? await guardedFetch(
          `${input.internalBaseUrl}${APPLE_SANDBOX_PATH}`,
          {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body,
            signal: AbortSignal.timeout(10_000),
          },
          false,
        )
      : await guardedFetch(
          input.validationUrl,
          {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body,
            signal: AbortSignal.timeout(10_000),
            clientCertificate: { cert: setup.certificate, key: setup.key },
          },
          true,
        );
  } catch (error) {
    log.warn({ error: errorField(error) }, "Apple Pay merchant validation failed");
    return refuse("pay.errors.wallet_unavailable");
  }
  const text = await response.text();
  if (!response.ok || text.length > MAX_SESSION) {
    log.warn({ status: response.status, answer: text.slice(0, 200) }, "Apple Pay merchant validation was refused");
    return refuse("pay.errors.wallet_unavailable");
  }
  try {
    return { ok: true, session: JSON.parse(text) };
  } catch {
    log.warn("Apple Pay merchant validation answered no JSON");
    return refuse("pay.errors.wallet_unavailable");
  }
}
