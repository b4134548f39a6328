import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { HelpSubject } from "./help-schema";
import { queueMail } from "./mail.server";


const subjectTitles: Record<HelpSubject, string> = {
  support_request: "Support request",
  suggestion: "Suggestion",
  feedback: "Feedback",
};

/** A merchant user's message to the platform's support desk; replies go to the address given. */
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
  await queueMail(db, {
    merchantId: input.user.merchantId,
    to: input.supportAddress,
    replyTo: input.email,
    subject: `[${input.merchantTitle}] ${subjectTitles[input.subject]} from ${input.user.username}`,
    text: `${subjectTitles[input.subject]}\nFrom: ${input.user.username} <${input.email}>\nMerchant: ${input.merchantTitle}\n\n${input.message || "(no message)"}`,
  });
  await recordAudit(db, {
    merchantId: input.user.merchantId,
    actor: { id: input.user.id, username: input.user.username },
    action: "help_request",
    description: `${input.user.username} sent a ${subjectTitles[input.subject].toLowerCase()} to support`,
  });
}
