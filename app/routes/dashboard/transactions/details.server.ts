import { data } from "react-router";
import { pendingOperationRequestsOf } from "~/domain/approvals/operation-requests.server";
import { listAuditEntries } from "~/domain/audit/audit-log.server";
import { can } from "~/domain/identity/permissions";
import { loadMerchantBranding } from "~/domain/merchants/merchants.server";
import { boundsOf } from "~/domain/payments/amount-bounds.server";
import { storeAttachment } from "~/domain/payments/attachments.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { labelledCheckoutValues } from "~/domain/payments/checkout-fields.server";
import { duplicatePayments, OPERATION_PERMISSIONS } from "~/domain/payments/operations.server";
import { RECEIPTED_STATES } from "~/domain/payments/states";
import { actionContextOf, rowActions } from "~/domain/payments/transaction-actions.server";
import { updateTransactionFields } from "~/domain/payments/transaction-updates.server";
import { childOperations, findTransactionRow } from "~/domain/transactions/list.server";
import { remarkRows } from "~/domain/transactions/remarks";
import { formatDateTime } from "~/lib/format";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { auditActor, describeAuditEntry } from "~/presentation/audit.server";
import { makerName, paymentReturnsView } from "~/presentation/payment-returns.server";
import { describeRowAction, operationMessage, qrCodeSvg } from "~/presentation/transactions.server";
import { transactionExtensions } from "~/sections/registry.server";
import { notFound } from "~/web/guards.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { requireListPlace, scopeOf } from "./context.server";
import { listAction } from "./list.server";
import { readFormData } from "~/web/form-data.server";
import { platformAddresses } from "~/web/addresses.server";
import { isOperationKind, operationDialogAction, operationDialogOf } from "./details/operation-dialog.server";

type Args = Parameters<typeof requireListPlace>[0] & { params: { transactionId?: string } };

export async function loadDetails(args: Args) {
  const { context, request, params } = args;
  const { auth, place } = await requireListPlace(args);
  const db = getDbFrom(context);
  const lang = place.lang;
  const t = translator(lang);
  const url = new URL(request.url);
  const row = await findTransactionRow(db, scopeOf(auth, place), params.transactionId ?? "");
  const type = url.searchParams.get("type");
  if (!row || (type && type !== row.plugin)) notFound();
  const [gateways, actionContext, children, merchant, trail, pending] = await Promise.all([
    listMerchantGateways(db, auth.user.merchantId),
    actionContextOf(db, auth.user.merchantId),
    childOperations(db, auth.user.merchantId, [row.id]),
    loadMerchantBranding(db, auth.user.merchantId),
    listAuditEntries(db, auth.user.merchantId, { limit: 100, object: { type: "transaction", id: row.id } }),
    pendingOperationRequestsOf(db, auth.user.merchantId, auth.user, row.id),
  ]);
  const gatewayName = (code: string | null) => {
    if (!code) return "—";
    const gateway = gateways.find((candidate) => candidate.code === code);
    return gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : code;
  };
  const money = (minor: number) => formatAmount(minor, row.currency_code, lang);
  const payUrl = payUrlOf(linkBaseUrl(), lang, row.id);
  const amount = money(row.amount);
  const amountRange = (bounds: { min: number; max: number }) => `${money(bounds.min)} – ${money(bounds.max)}`;
  const operation = url.searchParams.get("operation");
  const dialog = isOperationKind(operation)
    ? await operationDialogOf(db, {
        merchantId: auth.user.merchantId,
        actor: auth.user,
        transactionId: row.id,
        kind: operation,
        attemptId: url.searchParams.get("attempt"),
        lang,
      })
    : null;
  const duplicates = await duplicatePayments(db, auth.user.merchantId, row.id);
  // The customer's answers to the merchant's checkout fields, under their labels; anything else in extra as stored.
  const answers = await labelledCheckoutValues(db, row);
  const answered = new Set([
    ...answers.map((answer) => answer.name),
    ...(transactionExtensions(row.plugin)?.extraKeys ?? []),
  ]);
  const extra = (() => {
    try {
      return Object.entries(JSON.parse(row.extra) as Record<string, unknown>)
        .filter(([key]) => !answered.has(key))
        .map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)] as [string, string]);
    } catch {
      return [];
    }
  })();
  const done = url.searchParams.get("done");
  return {
    place: { basePath: place.basePath, deleted: place.deleted },
    id: row.id,
    orderNo: row.order_no,
    plugin: row.plugin,
    state: row.state,
    settled: RECEIPTED_STATES.includes(row.state),
    deleted: Boolean(row.deleted_at),
    canChange: can(auth.user, "change_paymenttransaction") && !row.deleted_at,
    actions: rowActions(row, auth.user, actionContext).map((action) => describeRowAction(action, row, lang, "")),
    payUrl,
    /** What the share card opens with: how much, and from whom. */
    headline: {
      amount,
      customer:
        [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ") ||
        row.customer_email ||
        row.customer_phone ||
        null,
    },
    qrSvg: await qrCodeSvg(db, row, payUrl, transactionExtensions(row.plugin)),
    shareText: t("payment_request.share_text", {
      amount,
      merchant: merchant[lang === "ar" ? "title_ar" : "title_en"],
      link: payUrl,
    }),
    /** WhatsApp's chat with the customer when their number is known (wa.me takes digits only), else its share sheet. */
    whatsappNumber: row.customer_phone ? row.customer_phone.replace(/\D/g, "") || null : null,
    receiptUrl:
      row.paid_attempt_id && RECEIPTED_STATES.includes(row.state)
        ? `/${lang}/pay/attempt-detail/${row.paid_attempt_id}/receipt.pdf`
        : null,
    mapUrl:
      row.delivery_lat !== null && row.delivery_lng !== null
        ? `https://www.google.com/maps?q=${row.delivery_lat},${row.delivery_lng}`
        : null,
    attachment: row.attachment_name ? { name: row.attachment_name, url: `/${lang}/pay/${row.id}/attachment` } : null,
    customerEmail: row.customer_email,
    customerPhone: row.customer_phone,
    remarks: remarkRows(row.remarks),
    extra,
    // What the transaction says; rows of nothing (no fee, nothing refunded, no customer email) are left out.
    rows: (
      [
        ["fields.amount", amount],
        ["fields.customer_name", [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ")],
        ["fields.customer_email", row.customer_email],
        ["fields.customer_phone", row.customer_phone],
        ["fields.description", row.description],
        [
          "fields.expiration_time",
          row.expiration_time ? formatDateTime(row.expiration_time, lang) : t("payment_request.never"),
        ],
        ...(row.editable_amount ? [["details.amount_range", amountRange(boundsOf(row))] as [string, string]] : []),
        ["fields.paid_amount", row.paid_amount ? money(row.paid_amount) : null],
        ["fields.gateway_name", row.gateway_code ? gatewayName(row.gateway_code) : null],
        ["fields.fee", row.fee ? money(row.fee) : null],
        ["details.paid_attempt_fee", row.paid_attempt_fee ? money(row.paid_attempt_fee) : null],
        [
          "details.captured_amount",
          row.captured_amount && row.captured_amount !== row.paid_amount ? money(row.captured_amount) : null,
        ],
        ["fields.refunded_amount", row.refunded_amount ? money(row.refunded_amount) : null],
        ["details.pg_codes", row.pg_codes.split(",").filter(Boolean).map(gatewayName).join(", ")],
        ["fields.created", formatDateTime(row.created_at, lang)],
        [
          "fields.state_changed_at",
          row.state_changed_at && row.state_changed_at !== row.created_at
            ? formatDateTime(row.state_changed_at, lang)
            : null,
        ],
        ["fields.unit", (lang === "ar" ? row.unit_ar : row.unit_en) ?? null],
        ["fields.initiator", row.initiator],
        ["fields.ref_number", row.reference_id ?? row.track_id],
        ["fields.auth_code", row.auth_code],
        ["details.type", t(`sections.${row.plugin}`)],
        ["fields.id", row.id],
      ] as [string, string | null | undefined][]
    ).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && entry[1].trim() !== "" && entry[1] !== "—",
    ),
    /** Rows the transaction's section adds, already in the page's language. */
    sectionRows: [
      ...(transactionExtensions(row.plugin)?.details?.(row, lang) ?? []),
      ...answers.map((answer) => ({ name: answer.name, label: answer.label[lang], value: answer.value })),
    ],
    children: children.map((child) => ({
      id: child.id,
      kind: child.kind,
      state: child.state,
      amount: formatAmount(child.amount, child.currency_code, lang),
      created: formatDateTime(child.created_at, lang),
      by: child.requested_by ?? "",
      reference: child.gateway_reference,
      message: operationMessage(child.message, lang),
      duplicate: Boolean(child.attempt_id && child.attempt_id !== row.paid_attempt_id),
    })),
    pendingRequests: pending.map((request) => ({
      id: request.id,
      text: t("tickets.pending_on_transaction", {
        kind: t(`tickets.types.${request.kind}`),
        amount: formatAmount(request.amount, request.currency_code, lang),
        maker: makerName(request.maker_name, lang),
      }),
      url: `/${lang}/ticket/approve-refund-void/${request.id}`,
    })),
    trail: trail.map((entry) => ({
      id: entry.id,
      actor: auditActor(entry, lang),
      description: describeAuditEntry(entry, lang),
      at: formatDateTime(entry.created_at, lang),
    })),
    dialog,
    done: done && ["refund", "capture", "void", "requested", "checking"].includes(done) ? done : null,
    paidLate: row.paid_late,
    paymentReturns: await paymentReturnsView(db, auth.user.merchantId, [row.id], lang),
    duplicates: duplicates.map((duplicate) => ({
      id: duplicate.id,
      kind: duplicate.kind,
      amount: formatAmount(duplicate.total, duplicate.currency_code, lang),
      available: formatAmount(duplicate.available, duplicate.currency_code, lang),
      gateway: gatewayName(duplicate.gateway_code),
      paidAt: duplicate.completed_at ? formatDateTime(duplicate.completed_at, lang) : "—",
      reference: duplicate.payment_id ?? duplicate.track_id,
      canGiveBack: duplicate.available > 0 && can(auth.user, OPERATION_PERMISSIONS[duplicate.kind]) && !row.deleted_at,
    })),
  };
}

/** The details page's forms: the row actions and dialog of the list, and the attachment field. */
export async function detailsAction(args: Args) {
  const { auth, place } = await requireListPlace(args);
  const form = await readFormData(args.request);
  const intent = String(form.get("intent") ?? "");
  const lang = place.lang;
  if (intent === "operation") {
    const db = getDbFrom(args.context);
    const row = await findTransactionRow(db, scopeOf(auth, place), args.params.transactionId ?? "");
    if (!row || String(form.get("id") ?? "") !== row.id) notFound();
    return operationDialogAction(db, {
      form,
      url: new URL(args.request.url),
      actor: auth.user,
      merchantId: auth.user.merchantId,
      lang,
      baseUrl: linkBaseUrl(),
      addresses: platformAddresses(args.request),
      plugin: place.section?.key,
    });
  }
  if (intent !== "attachment_upload" && intent !== "attachment_clear") return listAction(args, form);
  const t = translator(lang);
  if (!can(auth.user, "change_paymenttransaction"))
    return data({ attachmentError: t("operations.errors.forbidden") }, { status: 403 });
  const db = getDbFrom(args.context);
  const row = await findTransactionRow(db, scopeOf(auth, place), args.params.transactionId ?? "");
  if (!row || row.deleted_at) notFound();
  let key: string | null = null;
  if (intent === "attachment_upload") {
    const file = form.get("attachment");
    if (!(file instanceof File) || file.size === 0)
      return data({ attachmentError: t("attachment.errors.empty") }, { status: 400 });
    const stored = await storeAttachment(auth.user.merchantId, file);
    if (!stored.ok) return data({ attachmentError: t(stored.error) }, { status: 400 });
    key = stored.key;
  }
  const updated = await updateTransactionFields(db, {
    merchantId: auth.user.merchantId,
    transactionId: row.id,
    actor: { id: auth.user.id, username: auth.user.username },
    changes: { attachment: key },
    auditAs: "attachment",
  });
  if (!updated.ok) return data({ attachmentError: messageOf(updated, lang) }, { status: statusOf(updated) });
  return { attachmentDone: t(key ? "details.attachment_saved" : "details.attachment_cleared") };
}
