import type { Route } from "./+types/upload-product-example";
import { exampleRows } from "../../domain/bulk-create.server";
import { methodNotAllowed } from "~/web/api.server";
import { exampleFileResponse } from "~/web/example-file-response.server";

/**
 * GET upload/product/example?type=required_fields|all_fields&format=csv|xlsx: an example file of
 * product bulk create (the columns and two believable rows). It holds nothing of any merchant, so
 * it is served to anyone: the dashboard page links to it and a merchant's system may fetch it.
 */
export function loader({ request }: Route.LoaderArgs) {
  return exampleFileResponse(request, {
    rows: exampleRows,
    fileName: "menu-items",
    sheetName: "Menu items",
    minColumnWidth: 12,
    errors: { type: "food_bulk.errors.example_type", format: "food_bulk.errors.example_format" },
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
