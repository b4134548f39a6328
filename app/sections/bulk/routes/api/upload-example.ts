import type { Route } from "./+types/upload-example";
import { EXAMPLE_FORMATS, EXAMPLE_TYPES, exampleFile } from "../../presentation/bulk-upload.server";
import { apiErrors, methodNotAllowed } from "~/web/api.server";

/**
 * GET upload/example?type=required_fields|all_fields&format=csv|xlsx: an example bulk file (the
 * columns and believable rows). It holds nothing of any merchant, so it is served to anyone: the
 * dashboard page links to it and a merchant's system may fetch it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const type = params.get("type") ?? "required_fields";
  const format = params.get("format") ?? "csv";
  const errors: Record<string, string[]> = {};
  if (!(EXAMPLE_TYPES as readonly string[]).includes(type)) errors.type = ["bulk.errors.example_type"];
  if (!(EXAMPLE_FORMATS as readonly string[]).includes(format)) errors.format = ["bulk.errors.example_format"];
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const file = await exampleFile(type as (typeof EXAMPLE_TYPES)[number], format as (typeof EXAMPLE_FORMATS)[number]);
  return new Response(new Uint8Array(file.body), {
    headers: { "Content-Type": file.type, "Content-Disposition": `attachment; filename="${file.name}"`, "Cache-Control": "public, max-age=3600" },
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
