import type { DB } from "~/db/database.server";

/** A bulk file's CSV: the header and `count` good rows (customer i: bulk-i@example.com, +965 5000 i), amounts 1.000 to 9.000 KWD. */
export function bulkCsv(count: number, options: { header?: string[]; row?: (index: number) => string[] } = {}) {
  const header = options.header ?? ["amount", "customer_email", "customer_phone", "customer_first_name", "description"];
  const lines = [header.join(",")];
  for (let index = 0; index < count; index++) {
    lines.push(
      (
        options.row?.(index) ?? [
          `${(index % 9) + 1}.250`,
          `bulk-${index}@example.com`,
          `+9655${String(index).padStart(7, "0")}`,
          `Customer ${index}`,
          `Rent ${index}`,
        ]
      ).join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The mails the outbox holds for the merchant, by recipient. */
export async function mailsByRecipient(db: DB, merchantId: number) {
  const rows = await db
    .selectFrom("outgoing_mail")
    .select(["to_address", "status", "error"])
    .where("merchant_id", "=", merchantId)
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.to_address, (counts.get(row.to_address) ?? 0) + 1);
  return counts;
}

/** How many rows a table holds for the merchant. */
export async function countOf(
  db: DB,
  table:
    "transactions" | "bulk_uploads" | "bulk_dispatch_logs" | "bulk_transaction_logs" | "outgoing_mail" | "outgoing_sms",
  merchantId: number,
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A mail relay's refusal of a message after it was written, given up: what a failed delivery leaves in the outbox. */
export async function refuseMailTo(db: DB, merchantId: number, address: string) {
  await db
    .updateTable("outgoing_mail")
    .set({ status: "failed", error: "550 mailbox unavailable" })
    .where("merchant_id", "=", merchantId)
    .where("to_address", "=", address)
    .execute();
}

/** A refused attempt while its job still retries: the mail stays queued with the relay's words. */
export async function refuseMailAttemptTo(db: DB, merchantId: number, address: string) {
  await db
    .updateTable("outgoing_mail")
    .set({ status: "queued", error: "421 try again later" })
    .where("merchant_id", "=", merchantId)
    .where("to_address", "=", address)
    .execute();
}
