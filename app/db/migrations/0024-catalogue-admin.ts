import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * The catalogue's management features (decision 0025): a merchant that had the catalogue when only
 * its transaction lists existed gets its products, import, stores, discounts and settings pages too,
 * as a merchant installing it now does.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  for (const feature of ["products", "product_upload", "stores", "discounts", "settings"]) {
    await sql`insert into merchant_features (merchant_id, section, feature)
      select merchant_id, 'catalogue', ${feature} from merchant_features where section = 'catalogue' and feature = ''
      on conflict do nothing`.execute(db);
  }
}
