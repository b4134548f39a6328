import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { DISCOUNTS } from "./pricing.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_SHOP_JOB = "catalogue_demo_shop";

type DemoProduct = {
  slug: string;
  sku: string;
  en: string;
  ar: string;
  description_en: string;
  description_ar: string;
  price: number;
  discounted?: number;
  inventory: number | null;
};

/** Prices in fils (KWD minor units); inventory null is unlimited. */
const PRODUCTS: DemoProduct[] = [
  {
    slug: "brass-dallah",
    sku: "GK-101",
    en: "Brass dallah coffee pot",
    ar: "دلة قهوة نحاسية",
    description_en: "Hand-finished brass dallah for serving Arabic coffee, 1 litre.",
    description_ar: "دلة نحاسية مشغولة يدوياً لتقديم القهوة العربية، سعة لتر واحد.",
    price: 18500,
    inventory: 8,
  },
  {
    slug: "saffron-30g",
    sku: "GK-102",
    en: "Saffron, 30 g",
    ar: "زعفران، 30 غرام",
    description_en: "Premium saffron threads in a gift tin.",
    description_ar: "خيوط زعفران فاخرة في علبة هدية.",
    price: 12000,
    discounted: 9750,
    inventory: 25,
  },
  {
    slug: "oud-chips-50g",
    sku: "GK-103",
    en: "Oud incense chips, 50 g",
    ar: "بخور عود، 50 غرام",
    description_en: "Rich oud chips for the mabkhara. Limited stock.",
    description_ar: "قطع عود فاخرة للمبخرة. كمية محدودة.",
    price: 35000,
    inventory: 5,
  },
  {
    slug: "sukkari-dates-1kg",
    sku: "GK-104",
    en: "Sukkari dates gift box, 1 kg",
    ar: "علبة تمر سكري هدية، 1 كغ",
    description_en: "Soft Sukkari dates packed in a wooden gift box.",
    description_ar: "تمر سكري طري في علبة هدية خشبية.",
    price: 6500,
    inventory: null,
  },
  {
    slug: "embroidered-bisht",
    sku: "GK-105",
    en: "Embroidered bisht",
    ar: "بشت مطرز",
    description_en: "Black wool bisht with gold zari embroidery.",
    description_ar: "بشت صوف أسود بتطريز زري ذهبي.",
    price: 95000,
    inventory: 3,
  },
  {
    slug: "velvet-prayer-mat",
    sku: "GK-106",
    en: "Velvet prayer mat",
    ar: "سجادة صلاة مخملية",
    description_en: "Soft padded prayer mat with a travel bag.",
    description_ar: "سجادة صلاة مبطنة ناعمة مع حقيبة للسفر.",
    price: 7250,
    inventory: null,
  },
  {
    slug: "green-cardamom-250g",
    sku: "GK-107",
    en: "Green cardamom, 250 g",
    ar: "هيل أخضر، 250 غرام",
    description_en: "Whole green cardamom pods for coffee and sweets.",
    description_ar: "حبوب هيل أخضر كاملة للقهوة والحلويات.",
    price: 4750,
    inventory: 40,
  },
  {
    slug: "ceramic-mabkhara",
    sku: "GK-108",
    en: "Ceramic mabkhara",
    ar: "مبخرة سيراميك",
    description_en: "Glazed ceramic incense burner with a brass lid.",
    description_ar: "مبخرة سيراميك مزججة بغطاء نحاسي.",
    price: 11000,
    discounted: 8800,
    inventory: 12,
  },
  {
    slug: "arabic-coffee-500g",
    sku: "GK-109",
    en: "Arabic coffee blend, 500 g",
    ar: "قهوة عربية، 500 غرام",
    description_en: "Lightly roasted beans ground with cardamom and saffron.",
    description_ar: "بن محمص تحميصاً خفيفاً مطحون مع الهيل والزعفران.",
    price: 5500,
    inventory: null,
  },
  {
    slug: "sadu-cushion-cover",
    sku: "GK-110",
    en: "Sadu cushion cover",
    ar: "غطاء وسادة سدو",
    description_en: "Traditional Sadu weave, 45 × 45 cm.",
    description_ar: "نسيج السدو التقليدي، 45 × 45 سم.",
    price: 9000,
    inventory: 0,
  },
];

/**
 * A believable gift shop for a new demo merchant: ten products (some with limited stock, one sold
 * out, two discounted), a store to collect from, the discount code WELCOME10 and the shop's settings
 * with its banner shown. Runs once: a merchant that already has products is left as it is.
 */
export async function seedDemoShop(db: DB, { merchantId }: { merchantId: number }) {
  await writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom("catalogue_products")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .limit(1)
      .executeTakeFirst();
    if (existing) return;
    const at = nowIso();
    await trx
      .insertInto("catalogue_products")
      .values(
        PRODUCTS.map((product, index) => ({
          merchant_id: merchantId,
          slug: product.slug,
          sku: product.sku,
          name_en: product.en,
          name_ar: product.ar,
          description_en: product.description_en,
          description_ar: product.description_ar,
          price: product.price,
          discounted_price: product.discounted ?? null,
          inventory: product.inventory,
          is_active: 1,
          position: index + 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    await trx
      .insertInto("catalogue_stores")
      .values({
        merchant_id: merchantId,
        name_en: "Mubarakiya shop",
        name_ar: "محل المباركية",
        address_en: "Souq Al-Mubarakiya, Kuwait City",
        address_ar: "سوق المباركية، مدينة الكويت",
        phone: "+96522401234",
        is_active: 1,
        position: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const today = DateTime.fromISO(at).setZone("Asia/Kuwait").startOf("day");
    await trx
      .insertInto("offer_codes")
      .values({
        merchant_id: merchantId,
        section: DISCOUNTS.section,
        code: "WELCOME10",
        code_lc: "welcome10",
        discount_type: "percentage",
        amount: 1000,
        valid_from: today.toUTC().toISO()!,
        valid_to: today.plus({ years: 1 }).toUTC().toISO()!,
        min_total: 0,
        max_uses: 500,
        used: 0,
        is_active: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const settings = {
      currency: null,
      show_banner: true,
      label_store_en: "Pick-up store",
      label_store_ar: "متجر الاستلام",
      decimal_places: null,
      terms_en: "Items may be returned unused within 7 days with the receipt.",
      terms_ar: "يمكن إرجاع المنتجات غير المستعملة خلال 7 أيام مع الإيصال.",
      banner: {
        image: null,
        title_en: "Gifts from Kuwait",
        title_ar: "هدايا من الكويت",
        subtitle_en: "Use WELCOME10 for 10% off your first order",
        subtitle_ar: "استخدم WELCOME10 لخصم 10% على طلبك الأول",
        link: null,
      },
    };
    await trx
      .insertInto("catalogue_settings")
      .values({ merchant_id: merchantId, data: JSON.stringify(settings), updated_at: at })
      .onConflict((conflict) => conflict.column("merchant_id").doNothing())
      .execute();
  });
}
