import type { Route } from "./+types/upload-products-example";
import { exampleRows } from "~/sections/catalogue/domain/bulk-import.server";
import { methodNotAllowed } from "~/web/api.server";
import { exampleFileResponse } from "~/web/example-file-response.server";

/**
 * GET dashboard/upload/product/example?type=required_fields|all_fields&format=csv|xlsx: an example
 * product import file (the columns and two believable rows). It holds nothing of any merchant, so it
 * is served to anyone: the dashboard page links to it and a merchant's system may fetch it.
 */
export function loader({ request }: Route.LoaderArgs) {
  return exampleFileResponse(request, {
    rows: exampleRows,
    fileName: "products",
    sheetName: "Products",
    minColumnWidth: 12,
    errors: {
      type: "catalogue_admin.import.errors.example_type",
      format: "catalogue_admin.import.errors.example_format",
    },
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
