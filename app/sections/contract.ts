/**
 * What a section is (docs/architecture.md, docs/decisions/0012).
 *
 * A section is one folder under app/sections/ with two faces:
 * - its declaration (`section.ts`): plain data read by routes.ts at build time and by the shell,
 *   the permissions, the seed and the API on every request. It imports nothing but types.
 * - its server part (`section.server.ts`, loaded through `server`): what runs on the server — its
 *   hook on transaction state changes, its job handlers, and what it adds to the shared
 *   transaction workspace (details rows, serialised fields, the public address of a transaction).
 *
 * Sections never import each other; they reach the platform's core through app/domain.
 */
import type { PageWithoutRouter } from "~/web/page-without-router.server";
import type { DB } from "~/db/database.server";
import type { Actor } from "~/domain/identity/permissions";
import type { SectionSetting } from "~/domain/merchants/sections-admin.server";
import type { RowActionName } from "~/domain/payments/transaction-actions.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import type { TransactionRow } from "~/domain/transactions/list.server";
import type { AttachmentRenderer } from "~/domain/messaging/mail.server";
import type { TemplateSpec } from "~/domain/messaging/mail-templates.server";
import type { JobHandler } from "~/lib/jobs.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";

/** A route of a section: `file` is relative to app/ (as routes.ts names route modules). */
export type SectionRoute = { path: string; file: string; id: string };

/** A sub-feature flag of dashboard spec §6, and where its pages live under the section's path. */
export type SectionFeature = {
  key: string;
  path: string;
  /** What a user needs to open the feature's pages (checked on the server). */
  permission?: string;
};

/** Filters of the transaction list that only some sections offer. */
export type SectionListFilter = "bulk";

export type SectionDeclaration = {
  /** The section's one name: merchant feature flags, the API's plugin segment, transactions.plugin. */
  key: string;
  /** Its dashboard URL segment, e.g. payment-request. */
  path: string;
  /** A section not built yet has no folder: its pages say so plainly and it has no server part. */
  built: boolean;
  features: SectionFeature[];
  /** Permissions this section adds to the platform's own. */
  permissions: string[];
  /**
   * The namespaces of the text catalogue that are the section's own, which the browser's catalogue
   * leaves out (vite.config.ts, decision 0020): `page`, the words its dashboard pages bring with them
   * (its dashboardLayout's loader sends them); `serverOnly`, those only its server writes out (its
   * customer pages sent without scripts, its mails). browser-catalogue.test.ts checks that no code
   * the browser runs asks for the latter, and no other code than the section's for the former.
   */
  namespaces?: { page?: readonly string[]; serverOnly?: readonly string[] };
  /**
   * The API-key scope of the section's management API (`<area>:read`, `<area>:write`): what each
   * operation lets a key do, as the section's own permissions (decision 0022).
   */
  apiSetupScope?: { area: string; read: string[]; write: string[] };
  /** What the section adds to the shared transaction list (sections with a transactions feature). */
  transactions?: {
    filters?: SectionListFilter[];
    /** Whether requests of this section may let the customer type the amount (list config). */
    editableAmount?: boolean;
    /** Whether customers pay its transactions on the platform's pay page and through the public pay API. */
    payable?: boolean;
    /**
     * Whether the merchant may add checkout fields to its pay page (a civil ID, a student number:
     * Administration → Sections → the section → Checkout fields). The pay page and the public pay
     * API then ask customers for them before a payment starts, and the values are kept on the
     * transaction's `extra` by field name. Only for a payable section.
     */
    checkoutFields?: boolean;
  };
  /** Route modules of its own, besides the shared transaction pages every listing section gets. */
  routes?: {
    /** Under /:lang/, signed in (the dashboard shell). */
    dashboard?: SectionRoute[];
    /** A layout around its dashboard routes (the words its pages bring with them: `namespaces.page`). */
    dashboardLayout?: { file: string; id: string };
    /** Under /:lang/, for anyone (customer pages). */
    public?: SectionRoute[];
    /** Under /api/v1/. */
    api?: SectionRoute[];
    /** Outside /:lang/ and /api/ (a gateway's or a platform's callbacks): their first segments are never language-prefixed. */
    root?: SectionRoute[];
  };
  /**
   * What the merchant may choose about the section on its administration page
   * (/:lang/admin/sections/{key}); the section reads the values with loadSectionSettings.
   */
  settings?: readonly SectionSetting[];
  /**
   * A job of its server part that fills a new demo merchant with believable data (payload
   * `{ merchantId, userId }`), queued by the demo seed and run once the platform is wired.
   */
  demoJob?: string;
  server?: () => Promise<{ sectionServer: SectionServer }>;
};

export type { SectionSetting };

/** A row the details page (and the API's details) shows: its name, a translated label and a value. */
export type DetailsRow = { name: string; label: string; value: string };

/** A column a section adds to its transaction list: offered on its Table headers page and in its exports. */
export type SectionField = {
  name: string;
  /** Translation key of the column's own label (the merchant may rename it). */
  label: string;
  /** The value as people read it, in their language: the list's cell and the export's. */
  display: (row: TransactionRow, lang: Language) => string;
};

/**
 * A customer page a section serves without the router (decision 0011): a GET of `path` is answered
 * from the same view and component as its route (whose `routeId` names the page's stylesheets);
 * null hands the request to the router.
 */
export type DirectPage = PageWithoutRouter;

/** A payment request another part of the platform asks for (the point-of-sale counter, a paired code). */
export type RequestMakerInput = {
  merchantId: number;
  /** Who asks: the signed-in person at the counter, or the person who issued a code. */
  user: { id: number; username: string };
  /** The fields of the payment request API (amount as a decimal string, currency_code, customer_*, description, ...). */
  fields: Record<string, unknown>;
  lang: Language;
  /** What made it, kept on the transaction's `extra.source` (`pos`, `code_pairing`). */
  source: string;
  /** More of the transaction's `extra`, beside `source` (a checkout session's id and the merchant's order number). */
  extra?: Record<string, unknown>;
  /**
   * What the caller writes with the request, inside the same database transaction, once it is
   * made (a checkout session's row): a throw rolls the request back with it.
   */
  alongside?: (trx: DB, made: { transactionId: string }) => Promise<void>;
};

export type RequestMakerResult =
  | { ok: true; transactionId: string; payUrl: string }
  /** Field errors by the API's field names, as translation keys with their parameters. */
  | { ok: false; errors: Record<string, string[]>; params: TextParams };

/** A collector page as the point-of-sale counter shows it, every word in the page's language. */
export type CounterCollector = {
  publicId: string;
  title: string;
  /** Within its days, with a currency it can take: otherwise the counter says the page is closed. */
  accepting: boolean;
  currencies: string[];
  defaultCurrency: string;
  /** Each currency's limits as people read them ("Between 1.000 KWD and 50.000 KWD", the daily cap). */
  ranges: { currency: string; text: string; cap: string | null }[];
  /** The fields the page asks, by their form names (customer_name, customer_email, customer_phone, reference, extra.<key>). */
  fields: { name: string; kind: "name" | "email" | "phone" | "reference" | "text"; label: string; required: boolean }[];
  gateways: { code: string; name: string }[];
};

export type CollectorPaymentInput = {
  merchantId: number;
  /** The signed-in person at the counter: the payment's initiator. */
  user: { id: number; username: string };
  /** The collector's public id. */
  collectorId: string;
  /** The collector form's fields by name (amount, currency_code, gateway_code, the asked fields, submission_token). */
  fields: Record<string, string>;
  lang: Language;
  /** What made it, kept on the transaction's `extra.source` (`pos`). */
  source: string;
};

export type CollectorPaymentResult =
  | { ok: true; transactionId: string; payUrl: string }
  /** The collector is closed (deactivated, outside its days): nothing was made. */
  | { ok: false; closed: true }
  /** Field errors by the form's field names, as translation keys with their parameters. */
  | { ok: false; closed: false; errors: Record<string, string[]>; params: TextParams };
/** A payment attempt's result as the merchant's site is told it. */
export type CustomerResult = "success" | "cod" | "failed" | "canceled" | "error" | "expired";

export type SectionServer = {
  key: string;
  /**
   * Makes a payment request under the section's own rules and settings for another part of the
   * platform (the counter's "Create", a code that leads to a payment): the section that owns
   * payment requests offers it, the others find it through registry.server.ts `requestMaker`.
   */
  requestMaker?: (db: DB, input: RequestMakerInput) => Promise<RequestMakerResult>;
  /**
   * Takes a payment through one of the merchant's collector pages for another part of the platform
   * (the point-of-sale counter), under the page's own rules: its fields, currencies, limits and the
   * customer's daily cap, as if the customer had sent its form. The section that owns collector pages
   * offers it, the others find it through registry.server.ts `collectorPayment`. `list` names the
   * merchant's open pages, `form` describes one (null: not the merchant's, or not open), `make` takes
   * the payment.
   */
  collectorPayment?: {
    list: (db: DB, input: { merchantId: number; lang: Language }) => Promise<{ publicId: string; title: string }[]>;
    form: (
      db: DB,
      input: { merchantId: number; collectorId: string; lang: Language },
    ) => Promise<CounterCollector | null>;
    make: (db: DB, input: CollectorPaymentInput) => Promise<CollectorPaymentResult>;
  };
  /** Its busiest customer pages, served without the router (the food menu). */
  directPages?: DirectPage[];
  /**
   * Called by the one writer of transaction states for every change of a transaction of this
   * section, inside the same database transaction (pretix's order_paid, Saleor's
   * order_fully_paid). Mail and jobs it queues commit or roll back with the change. It must not
   * throw for a payment (`cause.kind === "payment"`): that would roll back recording money the
   * gateway took, and every retry would fail the same way. A section whose transactions are
   * payable sends its customer's confirmation (a receipt, tickets, an order) from here.
   */
  onTransition?: (trx: DB, event: TransitionEvent) => Promise<void>;
  /**
   * Called for every change of every transaction, whichever section owns it, inside the same
   * database transaction and after the owner's `onTransition`: for a section that keeps something
   * of its own around other sections' transactions (a checkout session around a payment request).
   * Each watcher runs in its own savepoint: when it throws, its own writes are undone and the
   * failure is logged, but the change it heard (a payment the gateway took) is still recorded.
   */
  watchTransitions?: (trx: DB, event: TransitionEvent) => Promise<void>;
  /**
   * Where the customer goes on from a payment's result page, when the section holds a place of the
   * merchant's for it (a checkout session's redirect_url, with the result in its query); null for
   * none. Asked of every section for any transaction, only once the attempt has its result.
   */
  customerReturn?: (
    db: DB,
    input: { transactionId: string; attemptId: string; result: CustomerResult; lang: Language },
  ) => Promise<string | null>;
  /** The side menu's badges on its features, by feature key (the Tickets items' pending requests). */
  menuCounts?: (
    db: DB,
    viewer: { merchantId: number; user: Actor; features: readonly string[] },
  ) => Promise<Record<string, number>>;
  /** Background jobs of the section, by job type; registered when the platform starts. */
  jobs?: Record<string, JobHandler>;
  /**
   * What is done once one of its jobs is given up (its last attempt failed, or its worker stopped
   * during it), by job type, so that what the job was making does not look unfinished for ever.
   */
  onGiveUp?: Record<string, JobHandler>;
  /** Jobs of its own the worker queues every `everyMs` (a sweep of holds whose time is up), by name. */
  schedules?: Record<string, { type: string; everyMs: number }>;
  /** Mails of its own (words in locales under mail.<template>), which the merchant may word itself. */
  mailTemplates?: Record<string, TemplateSpec>;
  /**
   * How Generated reports states the filters of the section's own reports (a bookings export), by
   * the report's `section`: label and value pairs in the reader's language.
   */
  reportFilters?: Record<
    string,
    (db: DB, merchantId: number, query: string, lang: Language) => Promise<{ label: string; value: string }[]>
  >;
  /** Files its mails carry, made when a mail is sent or read (a booking's tickets), by attachment type. */
  mailAttachments?: Record<string, AttachmentRenderer>;
  transactions?: {
    /** Columns of its own, after the built-in ones. */
    fields?: SectionField[];
    /** Rows the section adds to a transaction's details, in the reader's language. */
    details?: (row: TransactionRow, lang: Language) => DetailsRow[];
    /** Fields the section adds to a transaction as the API answers it. */
    serialize?: (row: TransactionRow) => Record<string, unknown>;
    /** Keys of `extra` the section shows itself through `details`: the details page leaves them out of its rows of `extra` as stored. */
    extraKeys?: readonly string[];
    /**
     * What the transaction's QR code holds on its details page and in the API's `qr_code`; null
     * for none. Without this hook the QR code holds the pay link.
     */
    qrContent?: (db: DB, row: TransactionRow, payUrl: string) => Promise<string | null>;
    /**
     * Row actions the merchant's settings of the section turn off (`email`, `sms`: sending the
     * link again), refused on every page and API, not only hidden.
     */
    refusedActions?: (db: DB, merchantId: number) => Promise<readonly RowActionName[]>;
    /** Where the customer downloads what a paid transaction bought (the result page's Ticket button); null for nothing. */
    ticketsUrl?: (db: DB, transactionId: string, lang: Language) => Promise<string | null>;
    /** Where the customer follows what a paid transaction ordered (the result page's "Follow your order"); null for nothing. */
    followUrl?: (db: DB, transactionId: string, lang: Language) => Promise<string | null>;
    /**
     * The section's own result page of an attempt on its transactions (the Shopify flow's payment
     * details, which adds a note and the way back to the shop): the platform's result page, where
     * every gateway returns the customer, sends them there. Without it the platform's page is the result.
     */
    resultUrl?: (attemptId: string, lang: Language) => string;
  };
};

/** A section that exists in the spec but is not built yet: no folder, no server part. */
export function notBuilt<const T extends Omit<SectionDeclaration, "built" | "server" | "routes">>(declaration: T) {
  return { ...declaration, built: false as const };
}

/** The `features` of a section that lists its transactions (and its deleted ones). */
export const TRANSACTION_FEATURES = [
  { key: "transactions", path: "transactions", permission: "view_paymenttransaction" },
  { key: "deleted_transactions", path: "deleted-transactions", permission: "view_paymenttransaction" },
] as const satisfies readonly SectionFeature[];
