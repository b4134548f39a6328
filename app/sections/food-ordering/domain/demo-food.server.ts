import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { KUWAIT_AREAS } from "~/domain/payments/kuwait-areas";
import { VOUCHERS } from "./pricing.server";

/** The job the section declares as its demo data (section.ts `demoJob`), queued by the demo seed. */
export const DEMO_FOOD_JOB = "food_demo_menu";

type Choice = [en: string, ar: string, price: number];
type Dish = {
  en: string;
  ar: string;
  description_en: string;
  description_ar: string;
  price: number;
  discounted?: number;
  quantity?: number;
  promoted?: boolean;
  sku: string;
  sizes?: Choice[];
  addOns?: Choice[];
  groups?: { en: string; ar: string; min: number; max: number; choices: Choice[] }[];
};
type Category = {
  en: string;
  ar: string;
  description_en?: string;
  description_ar?: string;
  catering?: { minPlates: number; serviceCharge: number };
  dishes: Dish[];
};

const spice = {
  en: "Spice level",
  ar: "درجة الحرارة",
  min: 1,
  max: 1,
  choices: [
    ["Mild", "خفيف", 0],
    ["Medium", "متوسط", 0],
    ["Hot", "حار", 0],
  ] as Choice[],
};

/** Prices in fils (KWD minor units). */
const MENU: Category[] = [
  {
    en: "Breakfast",
    ar: "الفطور",
    dishes: [
      {
        en: "Balaleet",
        ar: "بلاليط",
        description_en: "Sweet saffron vermicelli topped with a thin omelette.",
        description_ar: "شعيرية حلوة بالزعفران مع طبقة رقيقة من البيض.",
        price: 1750,
        sku: "BR-01",
      },
      {
        en: "Shakshuka",
        ar: "شكشوكة",
        description_en: "Eggs poached in a spiced tomato and pepper sauce, with bread.",
        description_ar: "بيض مطهو في صلصة الطماطم والفلفل المتبلة، مع الخبز.",
        price: 2000,
        sku: "BR-02",
        groups: [spice],
      },
      {
        en: "Foul Medames",
        ar: "فول مدمس",
        description_en: "Slow-cooked fava beans with olive oil, lemon and cumin.",
        description_ar: "فول مطبوخ على نار هادئة بزيت الزيتون والليمون والكمون.",
        price: 1500,
        sku: "BR-03",
        addOns: [
          ["Boiled egg", "بيضة مسلوقة", 250],
          ["Extra bread", "خبز إضافي", 150],
        ],
      },
    ],
  },
  {
    en: "Main dishes",
    ar: "الأطباق الرئيسية",
    dishes: [
      {
        en: "Chicken Machboos",
        ar: "مجبوس دجاج",
        description_en: "Spiced rice with slow-cooked chicken, dried lime and daqqus.",
        description_ar: "أرز متبل مع دجاج مطهو ببطء ولومي ودقوس.",
        price: 3500,
        sku: "MN-01",
        promoted: true,
        sizes: [
          ["Regular", "عادي", 3500],
          ["Family (serves 4)", "عائلي (يكفي 4)", 11500],
        ],
        addOns: [
          ["Extra daqqus", "دقوس إضافي", 200],
          ["Fried onions", "بصل مقلي", 250],
        ],
      },
      {
        en: "Lamb Machboos",
        ar: "مجبوس لحم",
        description_en: "Tender lamb on saffron rice with Gulf spices.",
        description_ar: "لحم غنم طري على أرز بالزعفران وبهارات خليجية.",
        price: 4750,
        sku: "MN-02",
        sizes: [
          ["Regular", "عادي", 4750],
          ["Family (serves 4)", "عائلي (يكفي 4)", 15500],
        ],
      },
      {
        en: "Murabyan",
        ar: "مربين",
        description_en: "Kuwaiti shrimp rice cooked with tomato and spices.",
        description_ar: "أرز بالروبيان الكويتي مطبوخ بالطماطم والبهارات.",
        price: 4250,
        discounted: 3750,
        sku: "MN-03",
        promoted: true,
      },
      {
        en: "Grilled Zubaidi",
        ar: "زبيدي مشوي",
        description_en: "Whole pomfret grilled with Gulf spices, with rice and salad. Limited daily catch.",
        description_ar: "سمك زبيدي كامل مشوي بالبهارات الخليجية مع الأرز والسلطة. كمية محدودة يومياً.",
        price: 6500,
        quantity: 12,
        sku: "MN-04",
      },
      {
        en: "Jireesh",
        ar: "جريش",
        description_en: "Cracked wheat slow-cooked with chicken, topped with fried onions.",
        description_ar: "جريش مطبوخ ببطء مع الدجاج ومغطى بالبصل المقلي.",
        price: 2750,
        sku: "MN-05",
      },
      {
        en: "Mixed Grill",
        ar: "مشاوي مشكلة",
        description_en: "Shish tawook, lamb kebab and lamb chops with grilled vegetables.",
        description_ar: "شيش طاووق وكباب لحم وريش غنم مع خضار مشوية.",
        price: 5250,
        sku: "MN-06",
        groups: [
          {
            en: "Side",
            ar: "الطبق الجانبي",
            min: 1,
            max: 1,
            choices: [
              ["Rice", "أرز", 0],
              ["Fries", "بطاطس مقلية", 0],
              ["Bread", "خبز", 0],
            ],
          },
          spice,
        ],
      },
    ],
  },
  {
    en: "Sandwiches",
    ar: "السندويشات",
    dishes: [
      {
        en: "Chicken Shawarma",
        ar: "شاورما دجاج",
        description_en: "Marinated chicken, garlic sauce and pickles in Arabic bread.",
        description_ar: "دجاج متبل مع صلصة الثوم والمخلل في خبز عربي.",
        price: 900,
        sku: "SW-01",
        sizes: [
          ["Regular", "عادي", 900],
          ["Large", "كبير", 1350],
        ],
        addOns: [
          ["Cheese", "جبن", 250],
          ["Extra garlic sauce", "صلصة ثوم إضافية", 100],
        ],
      },
      {
        en: "Falafel Wrap",
        ar: "لفافة فلافل",
        description_en: "Falafel, tahini, tomato and parsley.",
        description_ar: "فلافل وطحينة وطماطم وبقدونس.",
        price: 750,
        sku: "SW-02",
        groups: [spice],
      },
      {
        en: "Halloumi Sandwich",
        ar: "ساندويش حلومي",
        description_en: "Grilled halloumi with tomato, cucumber and za'atar.",
        description_ar: "حلومي مشوي مع الطماطم والخيار والزعتر.",
        price: 1250,
        sku: "SW-03",
      },
    ],
  },
  {
    en: "Desserts",
    ar: "الحلويات",
    dishes: [
      {
        en: "Luqaimat",
        ar: "لقيمات",
        description_en: "Crisp dumplings drizzled with date syrup and sesame.",
        description_ar: "لقيمات مقرمشة بدبس التمر والسمسم.",
        price: 1250,
        sku: "DS-01",
        promoted: true,
      },
      {
        en: "Umm Ali",
        ar: "أم علي",
        description_en: "Baked pastry pudding with milk, nuts and raisins.",
        description_ar: "حلوى العجين المخبوزة بالحليب والمكسرات والزبيب.",
        price: 1750,
        sku: "DS-02",
      },
      {
        en: "Saffron Kunafa",
        ar: "كنافة بالزعفران",
        description_en: "Warm kunafa with cheese and saffron syrup.",
        description_ar: "كنافة ساخنة بالجبن وقطر الزعفران.",
        price: 2000,
        sku: "DS-03",
        addOns: [["Ice cream scoop", "كرة آيس كريم", 500]],
      },
    ],
  },
  {
    en: "Drinks",
    ar: "المشروبات",
    dishes: [
      {
        en: "Karak Tea",
        ar: "شاي كرك",
        description_en: "Strong tea with cardamom and evaporated milk.",
        description_ar: "شاي قوي بالهيل والحليب المبخر.",
        price: 350,
        sku: "DR-01",
        sizes: [
          ["Small", "صغير", 350],
          ["Large", "كبير", 550],
        ],
      },
      {
        en: "Fresh Lemon Mint",
        ar: "ليمون نعناع طازج",
        description_en: "Blended lemon and mint over ice.",
        description_ar: "ليمون ونعناع مخفوقان مع الثلج.",
        price: 1250,
        sku: "DR-02",
      },
      {
        en: "Arabic Coffee",
        ar: "قهوة عربية",
        description_en: "Light roast with cardamom and saffron, served with dates.",
        description_ar: "قهوة خفيفة التحميص بالهيل والزعفران، تقدم مع التمر.",
        price: 750,
        sku: "DR-03",
      },
    ],
  },
  {
    en: "Catering",
    ar: "الولائم",
    description_en: "Trays for gatherings, from 10 plates, with a service charge for setting up and serving.",
    description_ar: "صواني للمناسبات ابتداءً من 10 أطباق، مع رسوم خدمة للتجهيز والتقديم.",
    catering: { minPlates: 10, serviceCharge: 15000 },
    dishes: [
      {
        en: "Whole Lamb Ouzi (per plate)",
        ar: "قوزي خروف كامل (للطبق)",
        description_en: "Slow-roasted lamb on spiced rice with nuts and raisins.",
        description_ar: "خروف محمر ببطء على أرز متبل بالمكسرات والزبيب.",
        price: 4500,
        sku: "CT-01",
      },
      {
        en: "Chicken Machboos Tray (per plate)",
        ar: "صينية مجبوس دجاج (للطبق)",
        description_en: "Our machboos served from the tray.",
        description_ar: "مجبوسنا يقدم من الصينية.",
        price: 2750,
        sku: "CT-02",
      },
      {
        en: "Mezze Platter (per plate)",
        ar: "تشكيلة مقبلات (للطبق)",
        description_en: "Hummus, moutabal, tabbouleh, fattoush and warm bread.",
        description_ar: "حمص ومتبل وتبولة وفتوش وخبز ساخن.",
        price: 1500,
        sku: "CT-03",
      },
    ],
  },
];

const BRANCHES = [
  {
    en: "Salmiya",
    ar: "السالمية",
    email: "salmiya@demo-store.example",
    phone: "+96522250001",
    address_html: "Salem Al-Mubarak Street, Block 10<br>Salmiya",
    lat: 29.3339,
    lng: 48.0765,
    min_order: 3000,
    minutes: 40,
    catering: false,
    areas: [
      ["Salmiya", 500, 3000],
      ["Hawalli", 750, 3000],
      ["Jabriya", 750, 4000],
      ["Rumaithiya", 750, 4000],
      ["Salwa", 1000, 5000],
      ["Bayan", 1000, 5000],
    ] as [string, number, number][],
  },
  {
    en: "Kuwait City",
    ar: "مدينة الكويت",
    email: "city@demo-store.example",
    phone: "+96522250002",
    address_html: "Fahad Al-Salem Street, Qibla<br>Kuwait City",
    lat: 29.3697,
    lng: 47.9783,
    min_order: 4000,
    minutes: 45,
    catering: true,
    areas: [
      ["Kuwait City", 500, 3000],
      ["Sharq", 500, 3000],
      ["Dasman", 750, 3000],
      ["Mirqab", 500, 3000],
      ["Shuwaikh", 1000, 5000],
      ["Kaifan", 1000, 5000],
      ["Dasma", 750, 4000],
    ] as [string, number, number][],
  },
];

/**
 * The demo merchant's restaurant: six categories (one for catering, 10 plates at least and a
 * service charge), twenty dishes in English and Arabic (sizes, add-ons, option groups, one of a
 * limited catch), two branches open 10:00–23:59 every day with their delivery areas, catering at
 * the Kuwait City branch, and the voucher WELCOME10 (10%, a year, once per customer). Rows are
 * written directly, in one transaction. Run again, it finds the menu and does nothing.
 */
export async function seedDemoFood(db: DB, input: { merchantId: number }) {
  const merchantId = input.merchantId;
  const known = new Set(KUWAIT_AREAS.map((area) => area.en));
  await writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom("food_categories")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .executeTakeFirst();
    if (existing) return;
    const now = nowIso();
    let itemPosition = 0;
    for (const [categoryIndex, category] of MENU.entries()) {
      const { id: categoryId } = await trx
        .insertInto("food_categories")
        .values({
          merchant_id: merchantId,
          name_en: category.en,
          name_ar: category.ar,
          description_en: category.description_en ?? "",
          description_ar: category.description_ar ?? "",
          position: categoryIndex + 1,
          is_active: 1,
          is_catering: category.catering ? 1 : 0,
          min_plates: category.catering?.minPlates ?? 0,
          service_charge: category.catering?.serviceCharge ?? 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const dish of category.dishes) {
        const { id: itemId } = await trx
          .insertInto("food_items")
          .values({
            merchant_id: merchantId,
            category_id: categoryId,
            sku: dish.sku,
            name_en: dish.en,
            name_ar: dish.ar,
            description_en: dish.description_en,
            description_ar: dish.description_ar,
            price: dish.price,
            discounted_price: dish.discounted ?? null,
            quantity: dish.quantity ?? null,
            is_available: 1,
            is_promoted: dish.promoted ? 1 : 0,
            position: ++itemPosition,
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const named = ([en, ar, price]: Choice, position: number) => ({
          item_id: itemId,
          name_en: en,
          name_ar: ar,
          price,
          position,
        });
        if (dish.sizes?.length) await trx.insertInto("food_item_sizes").values(dish.sizes.map(named)).execute();
        if (dish.addOns?.length) await trx.insertInto("food_item_addons").values(dish.addOns.map(named)).execute();
        for (const [position, group] of (dish.groups ?? []).entries()) {
          const { id: groupId } = await trx
            .insertInto("food_option_groups")
            .values({
              item_id: itemId,
              name_en: group.en,
              name_ar: group.ar,
              min_choices: group.min,
              max_choices: group.max,
              position,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          await trx
            .insertInto("food_option_choices")
            .values(
              group.choices.map(([en, ar, price], index) => ({
                group_id: groupId,
                name_en: en,
                name_ar: ar,
                price,
                position: index,
              })),
            )
            .execute();
        }
      }
    }

    for (const [index, branch] of BRANCHES.entries()) {
      const { id: branchId } = await trx
        .insertInto("food_branches")
        .values({
          merchant_id: merchantId,
          name_en: branch.en,
          name_ar: branch.ar,
          email: branch.email,
          phone: branch.phone,
          address_html: branch.address_html,
          min_order: branch.min_order,
          delivery_minutes: branch.minutes,
          lat: branch.lat,
          lng: branch.lng,
          offers_pickup: 1,
          offers_delivery: 1,
          offers_catering: branch.catering ? 1 : 0,
          is_active: 1,
          position: index + 1,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // Open every day; an interval ends the same day (opens before closes), so late evenings end at 23:59.
      await trx
        .insertInto("food_branch_hours")
        .values(
          [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ branch_id: branchId, weekday, opens: "10:00", closes: "23:59" })),
        )
        .execute();
      await trx
        .insertInto("food_delivery_areas")
        .values(
          branch.areas
            .filter(([area]) => known.has(area))
            .map(([area, charge, minOrder]) => ({
              merchant_id: merchantId,
              branch_id: branchId,
              area,
              zone: "",
              charge,
              min_order: minOrder,
              is_active: 1,
            })),
        )
        .execute();
    }

    const today = DateTime.fromISO(nowIso()).setZone("Asia/Kuwait").startOf("day");
    await trx
      .insertInto("offer_codes")
      .values({
        merchant_id: merchantId,
        section: VOUCHERS.section,
        code: "WELCOME10",
        code_lc: "welcome10",
        discount_type: "percentage",
        amount: 1000,
        valid_from: today.toUTC().toISO()!,
        valid_to: today.plus({ years: 1 }).toUTC().toISO()!,
        min_total: 0,
        max_uses: null,
        max_uses_per_customer: 1,
        used: 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
}
