import type { DB } from "~/db/database.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { isSupportedCurrency } from "~/lib/money";
import { loadCatalogueSettings } from "./settings.server";
import { shopMoneyOf, type ShopMoney } from "./shop-money";

/** The merchant's shop currency (its configuration's, else the merchant's) and the decimals it shows. */
export async function loadShopMoney(db: DB, merchantId: number): Promise<ShopMoney> {
  const [settings, defaults] = await Promise.all([
    loadCatalogueSettings(db, merchantId),
    loadMerchantDefaults(db, merchantId),
  ]);
  return shopMoneyOf(settings.currency ?? defaults.currency, settings.decimal_places);
}

/** The currencies the shop may sell in: the merchant's own and those its gateways take. */
export async function merchantCurrencies(db: DB, merchantId: number): Promise<string[]> {
  const [defaults, gateways] = await Promise.all([
    loadMerchantDefaults(db, merchantId),
    listMerchantGateways(db, merchantId),
  ]);
  const codes = new Set<string>([defaults.currency]);
  for (const gateway of gateways)
    for (const code of gateway.currencies.split(","))
      if (isSupportedCurrency(code.trim().toUpperCase())) codes.add(code.trim().toUpperCase());
  return [...codes];
}
