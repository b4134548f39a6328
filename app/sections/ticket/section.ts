import type { SectionDeclaration } from "../contract";

/** Tickets: the requests that wait for a checker — permission grants and refunds, captures and voids. */
export const ticket = {
  key: "ticket",
  path: "ticket",
  built: true,
  features: [
    { key: "user_permission_changes", path: "approve-permissions", permission: "approve_permission_requests" },
    { key: "operations_approval", path: "approve-refund-void", permission: "approve_operations" },
  ],
  permissions: [],
  routes: {
    dashboard: [
      {
        path: "approve-refund-void",
        file: "sections/ticket/routes/operations-requests.tsx",
        id: "ticket-operations-requests",
      },
      {
        path: "approve-refund-void/:requestId",
        file: "sections/ticket/routes/operations-request.tsx",
        id: "ticket-operations-request",
      },
      {
        path: "approve-permissions",
        file: "sections/ticket/routes/permissions-requests.tsx",
        id: "ticket-permissions-requests",
      },
      {
        path: "approve-permissions/:requestId",
        file: "sections/ticket/routes/permissions-request.tsx",
        id: "ticket-permissions-request",
      },
    ],
    api: [
      {
        path: "plugins/c/oa/processes/operation",
        file: "sections/ticket/routes/api/operation-processes.ts",
        id: "api-oa-processes",
      },
      {
        path: "plugins/c/oa/processes/operation/:id",
        file: "sections/ticket/routes/api/operation-process.ts",
        id: "api-oa-process",
      },
      {
        path: "plugins/c/oa/processes/operation/:id/:action",
        file: "sections/ticket/routes/api/operation-process-action.ts",
        id: "api-oa-process-action",
      },
      {
        path: "plugins/c/oa/tasks/operation",
        file: "sections/ticket/routes/api/operation-tasks.ts",
        id: "api-oa-tasks",
      },
      { path: "plugins/c/oa/counter", file: "sections/ticket/routes/api/operation-counter.ts", id: "api-oa-counter" },
      {
        path: "plugins/ticket/permission-requests",
        file: "sections/ticket/routes/api/permission-requests.ts",
        id: "api-permission-requests",
      },
      {
        path: "plugins/ticket/permission-requests/:id",
        file: "sections/ticket/routes/api/permission-request.ts",
        id: "api-permission-request",
      },
      {
        path: "plugins/ticket/permission-requests/:id/:action",
        file: "sections/ticket/routes/api/permission-request-action.ts",
        id: "api-permission-request-action",
      },
    ],
  },
  server: () => import("./section.server"),
} as const satisfies SectionDeclaration;
