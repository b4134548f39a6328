import type { DB } from "~/db/database.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { IssueCodeSchema, issueCode } from "./codes.server";
import { pairCode, type MakeRequest } from "./pairing.server";
import { findSite, saveDefaultLabel, saveSite } from "./sites.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_CODE_PAIRING_JOB = "cpr_demo";

export const DEMO_SITE = "school.demo-store.com.kw";

const CODES = [
  {
    code: "FEES-2026-0417",
    pair: "298041501234",
    amount: "450.000",
    description: "Tuition, third term 2026 — Grade 5",
    use: "single" as const,
    used: true,
  },
  {
    code: "FEES-2026-0418",
    pair: "301112204567",
    amount: "450.000",
    description: "Tuition, third term 2026 — Grade 2",
    use: "single" as const,
    used: false,
  },
  {
    code: "BUS-2026",
    pair: "290010107788",
    amount: "35.000",
    description: "School bus, monthly",
    use: "multi" as const,
    max_uses: "12",
    used: true,
  },
];

/**
 * The demo merchant's school site asking for a Civil ID, a default label, and three codes: two
 * single-use tuition codes (one already used) and a monthly bus code for twelve months. Run again,
 * it adds only what is missing.
 */
export async function seedDemoCodePairing(
  db: DB,
  payload: { merchantId: number; userId: number },
  makeRequest: MakeRequest,
) {
  const user = await loadSessionUser(db, payload.userId);
  if (!user) return;
  const actor = { id: user.id, username: user.username };
  let site = await findSite(db, DEMO_SITE);
  if (!site) {
    await saveDefaultLabel(db, {
      merchantId: payload.merchantId,
      actor,
      label_en: "Reference number",
      label_ar: "الرقم المرجعي",
    });
    const saved = await saveSite(db, {
      merchantId: payload.merchantId,
      actor,
      host: DEMO_SITE,
      label_en: "Civil ID",
      label_ar: "الرقم المدني",
    });
    if (!saved.ok) throw new Error(`demo code pairing site: ${JSON.stringify(saved.errors)}`);
    site = await findSite(db, DEMO_SITE);
  }
  if (!site || site.merchantId !== payload.merchantId) return;
  for (const entry of CODES) {
    const issued = await issueCode(db, {
      merchantId: payload.merchantId,
      actor,
      values: IssueCodeSchema.parse({ ...entry, currency_code: "KWD" }),
    });
    if (!issued.ok) continue;
    if (entry.used) await pairCode(db, { site, code: entry.code, pair: entry.pair, ip: null, lang: "en", makeRequest });
  }
}
