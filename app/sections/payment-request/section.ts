import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/** Payment requests: a merchant asks a customer for an amount by link, e-mail or SMS. */
export const paymentRequest = {
  key: "payment_request",
  path: "payment-request",
  built: true,
  features: [{ key: "create", path: "create", permission: "add_paymenttransaction" }, ...TRANSACTION_FEATURES],
  permissions: [],
  transactions: { editableAmount: true, payable: true, checkoutFields: true },
  routes: {
    dashboard: [{ path: "create", file: "sections/payment-request/routes/create.tsx", id: "payment-request-create" }],
    api: [
      {
        path: "plugins/payment_request/transaction",
        file: "sections/payment-request/routes/api-transactions.ts",
        id: "api-pr-create",
      },
      {
        path: "plugins/payment_request/attachment/upload",
        file: "sections/payment-request/routes/api-attachment-upload.ts",
        id: "api-attachment",
      },
    ],
  },
  settings: [
    {
      name: "default_expiry_hours",
      type: "hours",
      default: null,
      label: "admin.sections.fields.default_expiry_hours",
      hint: "admin.sections.fields.default_expiry_hours_hint",
    },
    {
      name: "editable_amount",
      type: "boolean",
      default: true,
      label: "admin.sections.fields.editable_amount",
      hint: "admin.sections.fields.editable_amount_hint",
    },
    {
      name: "restrict_multiple_payments",
      type: "boolean",
      default: true,
      fixed: true,
      label: "admin.sections.fields.restrict_multiple_payments",
      hint: "admin.sections.fields.restrict_multiple_payments_hint",
    },
    {
      name: "qr_code_type",
      type: "choice",
      default: "payment_link",
      choices: [
        { value: "payment_link", label: "admin.sections.fields.qr_code_types.payment_link" },
        { value: "transaction_id", label: "admin.sections.fields.qr_code_types.transaction_id" },
        { value: "none", label: "admin.sections.fields.qr_code_types.none" },
      ],
      label: "admin.sections.fields.qr_code_type",
      hint: "admin.sections.fields.qr_code_type_hint",
    },
    {
      name: "email_notifications",
      type: "boolean",
      default: true,
      label: "admin.sections.fields.email_notifications",
      hint: "admin.sections.fields.email_notifications_hint",
    },
    {
      name: "sms_notifications",
      type: "boolean",
      default: true,
      label: "admin.sections.fields.sms_notifications",
      hint: "admin.sections.fields.sms_notifications_hint",
    },
    {
      name: "multi_step_checkout",
      type: "boolean",
      default: true,
      label: "admin.sections.fields.multi_step_checkout",
      hint: "admin.sections.fields.multi_step_checkout_hint",
    },
  ],
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
