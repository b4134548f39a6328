import { data, redirect } from "react-router";
import type { DB } from "~/db/database.server";
import { confirmDelivery, saveDeliveryAddress, saveDeliveryLocation } from "~/domain/payments/delivery.server";

/** The delivery steps' form posts on the pay page: save, then on to the next step (303). */
export async function deliveryAction(db: DB, transactionId: string, intent: string, form: FormData) {
  const fields = Object.fromEntries(
    [...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  switch (intent) {
    case "save_address": {
      const saved = await saveDeliveryAddress(db, transactionId, fields, "KW");
      if (!saved.ok)
        return data({ deliveryErrors: saved.errors, values: fields, error: null, field: null }, { status: 400 });
      return redirect(saved.needsLocation ? "?step=location" : "?step=confirm", 303);
    }
    case "save_location":
    case "skip_location": {
      const saved = await saveDeliveryLocation(db, transactionId, intent === "skip_location" ? null : fields);
      if (!saved.ok)
        return data({ deliveryErrors: saved.errors, values: fields, error: null, field: null }, { status: 400 });
      return redirect("?step=confirm", 303);
    }
    case "confirm_delivery":
      await confirmDelivery(db, transactionId);
      return redirect("?", 303);
    default:
      return data({ error: "pay.errors.unexpected", field: null, deliveryErrors: null, values: null }, { status: 400 });
  }
}
