import { DEFAULT_MIGRATION_TABLE, Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { engineOf, type DB } from "./database.server";
import * as foundation from "./migrations/0001-foundation";
import * as payments from "./migrations/0002-payments";
import * as workspace from "./migrations/0003-workspace";
import * as sections from "./migrations/0004-sections";
import * as reconciliation from "./migrations/0005-reconciliation";
import * as amountBounds from "./migrations/0006-amount-bounds";
import * as accountAndInputSafety from "./migrations/0007-account-and-input-safety";
import * as runsPerMerchant from "./migrations/0008-reconciliation-runs-per-merchant";
import * as merchantContact from "./migrations/0009-merchant-contact";
import * as transactionSearch from "./migrations/0010-transaction-search";
import * as mailHtml from "./migrations/0011-mail-html";
import * as attemptCard from "./migrations/0012-attempt-card";
import * as merchantIntegrations from "./migrations/0013-merchant-integrations";
import * as sectionSettings from "./migrations/0014-section-settings";
import * as notificationTemplates from "./migrations/0015-notification-templates";
import * as merchantDisclaimer from "./migrations/0016-merchant-disclaimer";
import * as checkoutFields from "./migrations/0017-checkout-fields";
import * as events from "./migrations/0018-events";
import * as foodOrdering from "./migrations/0019-food-ordering";
import * as catalogue from "./migrations/0020-catalogue";
import * as customerPayment from "./migrations/0021-customer-payment";
import * as bulk from "./migrations/0022-bulk";
import * as catalogueShop from "./migrations/0023-catalogue-shop";
import * as catalogueAdmin from "./migrations/0024-catalogue-admin";
import * as catalogueStoreChoice from "./migrations/0025-catalogue-store-choice";
import * as messageFailures from "./migrations/0026-message-failures";
import * as collectorSubmissions from "./migrations/0027-collector-submissions";
import * as catalogueLineReserved from "./migrations/0028-catalogue-line-reserved";
import * as checkoutSessions from "./migrations/0029-checkout-sessions";
import * as checkoutSessionWebhooks from "./migrations/0030-checkout-session-webhooks";
import * as shopify from "./migrations/0032-shopify";
import * as codePairing from "./migrations/0033-code-pairing";
import * as liveMessages from "./migrations/0034-live-messages";
import * as pushSubscriptionSession from "./migrations/0035-push-subscription-session";
import * as unpaidHolds from "./migrations/0036-unpaid-holds";
import * as userLanguage from "./migrations/0037-user-language";
import * as knetResponseLeg from "./migrations/0038-knet-response-leg";
import * as mastercardGateway from "./migrations/0039-mastercard-gateway";
import * as walletSettings from "./migrations/0040-wallet-settings";
import * as auditRequestId from "./migrations/0041-audit-request-id";
import * as offerCodes from "./migrations/0042-offer-codes";
import * as orderNumbers from "./migrations/0043-order-numbers";
import * as paymentReturns from "./migrations/0044-payment-returns";

type EngineMigration = { up: (db: any, engine: ReturnType<typeof engineOf>) => Promise<void> };

/** Numbered, append-only. A landed migration is never edited; a change is a new entry. */
const migrations: Record<string, EngineMigration> = {
  "0001-foundation": foundation,
  "0002-payments": payments,
  "0003-workspace": workspace,
  "0004-sections": sections,
  "0005-reconciliation": reconciliation,
  "0006-amount-bounds": amountBounds,
  "0007-account-and-input-safety": accountAndInputSafety,
  "0008-reconciliation-runs-per-merchant": runsPerMerchant,
  "0009-merchant-contact": merchantContact,
  "0010-transaction-search": transactionSearch,
  "0011-mail-html": mailHtml,
  "0012-attempt-card": attemptCard,
  "0013-merchant-integrations": merchantIntegrations,
  "0014-section-settings": sectionSettings,
  "0015-notification-templates": notificationTemplates,
  "0016-merchant-disclaimer": merchantDisclaimer,
  "0017-checkout-fields": checkoutFields,
  "0018-events": events,
  "0019-food-ordering": foodOrdering,
  "0020-catalogue": catalogue,
  "0021-customer-payment": customerPayment,
  "0022-bulk": bulk,
  "0023-catalogue-shop": catalogueShop,
  "0024-catalogue-admin": catalogueAdmin,
  "0025-catalogue-store-choice": catalogueStoreChoice,
  "0026-message-failures": messageFailures,
  "0027-collector-submissions": collectorSubmissions,
  "0028-catalogue-line-reserved": catalogueLineReserved,
  "0029-checkout-sessions": checkoutSessions,
  "0030-checkout-session-webhooks": checkoutSessionWebhooks,
  "0032-shopify": shopify,
  "0033-code-pairing": codePairing,
  "0034-live-messages": liveMessages,
  "0035-push-subscription-session": pushSubscriptionSession,
  "0036-unpaid-holds": unpaidHolds,
  "0037-user-language": userLanguage,
  "0038-knet-response-leg": knetResponseLeg,
  "0039-mastercard-gateway": mastercardGateway,
  "0040-wallet-settings": walletSettings,
  "0041-audit-request-id": auditRequestId,
  "0042-offer-codes": offerCodes,
  "0043-order-numbers": orderNumbers,
  "0044-payment-returns": paymentReturns,
};

/** The migrations' names, oldest first: the newest is the schema this code expects. */
export const MIGRATION_NAMES = Object.keys(migrations);

function migratorOf(db: DB) {
  const engine = engineOf(db);
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]): [string, Migration] => [
          name,
          { up: (database) => migration.up(database, engine) },
        ]),
      );
    },
  };
  return new Migrator({ db, provider });
}

/**
 * Brings the database to the newest migration, or only up to `upTo` (an older schema, to prove
 * upgrades from it); answers the names it applied.
 */
export async function migrateToLatest(db: DB, options: { upTo?: string } = {}) {
  if (options.upTo !== undefined && !MIGRATION_NAMES.includes(options.upTo))
    throw new Error(`No migration ${options.upTo}`);
  const migrator = migratorOf(db);
  const { error, results } =
    options.upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(options.upTo);
  if (error) {
    const failed = results?.find((result) => result.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "?"} failed: ${String(error)}`, { cause: error });
  }
  return results?.filter((result) => result.status === "Success").map((result) => result.migrationName) ?? [];
}

/**
 * The migrations this code has that the database has not run yet (none: it is at the latest). Reads
 * Kysely's own record of them, one small query: readiness asks it every few seconds.
 */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const rows = await (db as Kysely<any>).selectFrom(DEFAULT_MIGRATION_TABLE).select("name").execute();
  const applied = new Set(rows.map((row: { name: string }) => row.name));
  return MIGRATION_NAMES.filter((name) => !applied.has(name));
}
