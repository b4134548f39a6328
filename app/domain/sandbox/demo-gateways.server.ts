import type { DB } from "~/db/database.server";
import { ensureSandboxAccounts } from "~/domain/sandbox/accounts.server";
import { nowIso } from "~/lib/clock.server";
import { seal } from "~/lib/sealed.server";

/**
 * The demo merchant's gateways: the platform's own KNET and Mastercard Gateway sandboxes (no endpoint of their
 * own, so they are reached at the platform's address, with this installation's sandbox accounts)
 * and cash on delivery, all for KWD. The card gateway carries a small customer-paid fee so fees
 * show on the pay page.
 */
export async function seedDemoGateways(db: DB, merchantId: number) {
  const accounts = await ensureSandboxAccounts(db);
  const created = nowIso();
  await db
    .insertInto("gateways")
    .values([
      {
        merchant_id: merchantId,
        code: "knet-sandbox",
        kind: "knet",
        name_en: "KNET",
        name_ar: "كي نت",
        logo_url: "/gateways/knet.svg",
        currencies: "KWD",
        endpoint_url: null,
        credentials: seal(JSON.stringify(accounts.knet)),
        fee_fixed: 0,
        fee_basis_points: 0,
        fee_payer: "merchant",
        capture_mode: "auto",
        enabled: 1,
        sort_order: 1,
        created_at: created,
      },
      {
        merchant_id: merchantId,
        code: "mpgs-sandbox",
        kind: "mpgs",
        name_en: "Credit Card",
        name_ar: "بطاقة ائتمان",
        logo_url: "/gateways/card.svg",
        currencies: "KWD,USD",
        endpoint_url: null,
        credentials: seal(JSON.stringify(accounts.mpgs)),
        fee_fixed: 100,
        fee_basis_points: 200,
        fee_payer: "customer",
        capture_mode: "auto",
        enabled: 1,
        sort_order: 2,
        created_at: created,
      },
      {
        merchant_id: merchantId,
        code: "cod",
        kind: "cod",
        name_en: "Cash on delivery",
        name_ar: "الدفع عند الاستلام",
        logo_url: "/gateways/cod.svg",
        currencies: "KWD",
        endpoint_url: null,
        credentials: seal("{}"),
        fee_fixed: 0,
        fee_basis_points: 0,
        fee_payer: "merchant",
        capture_mode: "auto",
        enabled: 1,
        sort_order: 3,
        created_at: created,
      },
    ])
    .execute();
}
