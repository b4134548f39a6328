import { data } from "react-router";

/**
 * The form a page's action was sent. A body that is not a form (JSON, a multipart body cut short)
 * is the sender's mistake, not ours: 400, which the error page explains in the page's language.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ reason: "unreadable_form" }, { status: 400 });
  }
}
