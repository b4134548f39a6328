import {
  EXAMPLE_FORMATS,
  EXAMPLE_TYPES,
  exampleFile,
  type ExampleFormat,
  type ExampleSpreadsheet,
  type ExampleType,
} from "~/presentation/spreadsheet-uploads.server";
import { apiErrors } from "./api.server";

/**
 * GET ?type=required_fields|all_fields&format=csv|xlsx: a section's example upload file. It holds
 * nothing of any merchant, so it may be cached publicly; an unknown type or format is a 400 with the
 * section's words (`errors`: translation keys).
 */
export async function exampleFileResponse(
  request: Request,
  example: ExampleSpreadsheet & { errors: { type: string; format: string } },
) {
  const params = new URL(request.url).searchParams;
  const type = params.get("type") ?? "required_fields";
  const format = params.get("format") ?? "csv";
  const errors: Record<string, string[]> = {};
  if (!(EXAMPLE_TYPES as readonly string[]).includes(type)) errors.type = [example.errors.type];
  if (!(EXAMPLE_FORMATS as readonly string[]).includes(format)) errors.format = [example.errors.format];
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const file = await exampleFile(example, type as ExampleType, format as ExampleFormat);
  return new Response(new Uint8Array(file.body), {
    headers: {
      "Content-Type": file.type,
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Cache-Control": "public, max-age=3600",
    },
  });
}
