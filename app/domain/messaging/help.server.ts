import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { word } from "~/lib/outcome";
import type { HelpSubject } from "./help-schema";
import { queueMail } from "./mail.server";

/** A merchant user's message to the platform's support desk (written to it in English); replies go to the address given. */
export async function sendHelpRequest(
  db: DB,
  input: {
    user: { id: number; username: string; merchantId: number };
    merchantTitle: string;
    supportAddress: string;
    email: string;
    subject: HelpSubject;
    message: string;
  },
) {
  const subject = word(`help.subjects.${input.subject}`);
  await queueMail(db, {
    merchantId: input.user.merchantId,
    to: input.supportAddress,
    replyTo: input.email,
    template: "help_request",
    params: {
      merchant: input.merchantTitle,
      subject,
      username: input.user.username,
      email: input.email,
      from: `${input.user.username} <${input.email}>`,
      message: input.message || word("help.no_message"),
    },
    lang: "en",
  });
  await recordAudit(db, {
    merchantId: input.user.merchantId,
    actor: { id: input.user.id, username: input.user.username },
    action: "help_request",
    params: { subject },
  });
}
