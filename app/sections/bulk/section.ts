import { TRANSACTION_FEATURES, type SectionDeclaration } from "../contract";

/**
 * Bulk payment requests: a merchant uploads a CSV or XLSX of payment requests, all or nothing; each
 * row becomes a request sent by e-mail and/or SMS in the background, with logs of every sending run;
 * a bulk may recur weekly or monthly (rent, school fees). Decision 0027.
 */
export const bulk = {
  key: "bulk",
  path: "bulk",
  built: true,
  features: [{ key: "upload", path: "uploads", permission: "add_paymenttransaction" }, ...TRANSACTION_FEATURES],
  permissions: [],
  namespaces: { page: ["bulk"] },
  transactions: { filters: ["bulk"], payable: true },
  routes: {
    dashboardLayout: { file: "sections/bulk/routes/layout.tsx", id: "bulk-layout" },
    dashboard: [
      { path: "uploads", file: "sections/bulk/routes/uploads.tsx", id: "bulk-uploads" },
      { path: "uploads/error-report/:token", file: "sections/bulk/routes/error-report.ts", id: "bulk-error-report" },
      { path: "uploads/:bulkId", file: "sections/bulk/routes/upload.tsx", id: "bulk-upload" },
      {
        path: "uploads/:bulkId/dispatch-logs",
        file: "sections/bulk/routes/dispatch-logs.tsx",
        id: "bulk-dispatch-logs",
      },
      {
        path: "uploads/:bulkId/dispatch-logs/:dispatchLogId/transaction-logs",
        file: "sections/bulk/routes/transaction-logs.tsx",
        id: "bulk-transaction-logs",
      },
    ],
    api: [
      { path: "plugins/bulk/upload", file: "sections/bulk/routes/api/upload.ts", id: "api-bulk-upload" },
      {
        path: "plugins/bulk/upload/example",
        file: "sections/bulk/routes/api/upload-example.ts",
        id: "api-bulk-upload-example",
      },
      { path: "plugins/bulk/uploads", file: "sections/bulk/routes/api/uploads.ts", id: "api-bulk-uploads" },
      {
        path: "plugins/bulk/uploads/:bulkId",
        file: "sections/bulk/routes/api/upload-detail.ts",
        id: "api-bulk-upload-detail",
      },
      {
        path: "plugins/bulk/uploads/:bulkId/schedule",
        file: "sections/bulk/routes/api/upload-schedule.ts",
        id: "api-bulk-upload-schedule",
      },
      {
        path: "plugins/bulk/uploads/:bulkId/resend-failed",
        file: "sections/bulk/routes/api/upload-resend.ts",
        id: "api-bulk-upload-resend",
      },
      {
        path: "plugins/bulk/uploads/:bulkId/dispatch-logs",
        file: "sections/bulk/routes/api/dispatch-logs.ts",
        id: "api-bulk-dispatch-logs",
      },
      {
        path: "plugins/bulk/uploads/:bulkId/dispatch-logs/:dispatchLogId/transaction-logs",
        file: "sections/bulk/routes/api/transaction-logs.ts",
        id: "api-bulk-transaction-logs",
      },
    ],
  },
  demoJob: "bulk_demo_upload",
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
