import type { Route } from "./+types/upload-example";
import { exampleRows } from "../../domain/bulk-examples";
import { methodNotAllowed } from "~/web/api.server";
import { exampleFileResponse } from "~/web/example-file-response.server";

/**
 * GET upload/example?type=required_fields|all_fields&format=csv|xlsx: an example bulk file (the
 * columns and believable rows). It holds nothing of any merchant, so it is served to anyone: the
 * dashboard page links to it and a merchant's system may fetch it.
 */
export function loader({ request }: Route.LoaderArgs) {
  return exampleFileResponse(request, {
    rows: exampleRows,
    fileName: "payment-requests",
    sheetName: "Payment requests",
    minColumnWidth: 14,
    errors: { type: "bulk.errors.example_type", format: "bulk.errors.example_format" },
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
