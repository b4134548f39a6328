/** Kuwait's residential areas by governorate, for the delivery address (public spec: kuwait_areas en_list / ar_list). */
export const KUWAIT_AREAS: readonly {
  en: string;
  ar: string;
  governorate: "capital" | "hawalli" | "farwaniya" | "mubarak_al_kabeer" | "ahmadi" | "jahra";
}[] = [
  // Capital (العاصمة)
  { en: "Abdullah Al-Salem", ar: "عبدالله السالم", governorate: "capital" },
  { en: "Adailiya", ar: "العديلية", governorate: "capital" },
  { en: "Bneid Al-Qar", ar: "بنيد القار", governorate: "capital" },
  { en: "Daiya", ar: "الدعية", governorate: "capital" },
  { en: "Dasma", ar: "الدسمة", governorate: "capital" },
  { en: "Dasman", ar: "دسمان", governorate: "capital" },
  { en: "Doha", ar: "الدوحة", governorate: "capital" },
  { en: "Faiha", ar: "الفيحاء", governorate: "capital" },
  { en: "Granada", ar: "غرناطة", governorate: "capital" },
  {
    en: "Jaber Al-Ahmad City",
    ar: "مدينة جابر الأحمد",
    governorate: "capital",
  },
  { en: "Kaifan", ar: "كيفان", governorate: "capital" },
  { en: "Khaldiya", ar: "الخالدية", governorate: "capital" },
  { en: "Kuwait City", ar: "مدينة الكويت", governorate: "capital" },
  { en: "Mansouriya", ar: "المنصورية", governorate: "capital" },
  { en: "Mirqab", ar: "المرقاب", governorate: "capital" },
  {
    en: "North West Sulaibikhat",
    ar: "شمال غرب الصليبيخات",
    governorate: "capital",
  },
  { en: "Nuzha", ar: "النزهة", governorate: "capital" },
  { en: "Qadsiya", ar: "القادسية", governorate: "capital" },
  { en: "Qibla", ar: "القبلة", governorate: "capital" },
  { en: "Qortuba", ar: "قرطبة", governorate: "capital" },
  { en: "Rawda", ar: "الروضة", governorate: "capital" },
  { en: "Salhiya", ar: "الصالحية", governorate: "capital" },
  { en: "Shamiya", ar: "الشامية", governorate: "capital" },
  { en: "Sharq", ar: "شرق", governorate: "capital" },
  { en: "Shuwaikh", ar: "الشويخ", governorate: "capital" },
  { en: "Sulaibikhat", ar: "الصليبيخات", governorate: "capital" },
  { en: "Surra", ar: "السرة", governorate: "capital" },
  { en: "Yarmouk", ar: "اليرموك", governorate: "capital" },

  // Hawalli (حولي)
  { en: "Bayan", ar: "بيان", governorate: "hawalli" },
  { en: "Bidaa", ar: "البدع", governorate: "hawalli" },
  { en: "Hawalli", ar: "حولي", governorate: "hawalli" },
  { en: "Hitteen", ar: "حطين", governorate: "hawalli" },
  { en: "Jabriya", ar: "الجابرية", governorate: "hawalli" },
  { en: "Maidan Hawalli", ar: "ميدان حولي", governorate: "hawalli" },
  { en: "Mishref", ar: "مشرف", governorate: "hawalli" },
  { en: "Mubarak Al-Abdullah", ar: "مبارك العبدالله", governorate: "hawalli" },
  { en: "Rumaithiya", ar: "الرميثية", governorate: "hawalli" },
  { en: "Salam", ar: "السلام", governorate: "hawalli" },
  { en: "Salmiya", ar: "السالمية", governorate: "hawalli" },
  { en: "Salwa", ar: "سلوى", governorate: "hawalli" },
  { en: "Shaab", ar: "الشعب", governorate: "hawalli" },
  { en: "Shuhada", ar: "الشهداء", governorate: "hawalli" },
  { en: "Siddiq", ar: "الصديق", governorate: "hawalli" },
  { en: "Zahra", ar: "الزهراء", governorate: "hawalli" },

  // Farwaniya (الفروانية)
  {
    en: "Abdullah Al-Mubarak",
    ar: "عبدالله المبارك",
    governorate: "farwaniya",
  },
  { en: "Abraq Khaitan", ar: "أبرق خيطان", governorate: "farwaniya" },
  { en: "Andalous", ar: "الأندلس", governorate: "farwaniya" },
  { en: "Ardiya", ar: "العارضية", governorate: "farwaniya" },
  { en: "Farwaniya", ar: "الفروانية", governorate: "farwaniya" },
  { en: "Firdous", ar: "الفردوس", governorate: "farwaniya" },
  { en: "Ishbiliya", ar: "إشبيلية", governorate: "farwaniya" },
  { en: "Jleeb Al-Shuyoukh", ar: "جليب الشيوخ", governorate: "farwaniya" },
  { en: "Khaitan", ar: "خيطان", governorate: "farwaniya" },
  { en: "Omariya", ar: "العمرية", governorate: "farwaniya" },
  { en: "Rabiya", ar: "الرابية", governorate: "farwaniya" },
  { en: "Rehab", ar: "الرحاب", governorate: "farwaniya" },
  { en: "Riggae", ar: "الرقعي", governorate: "farwaniya" },
  { en: "Sabah Al-Nasser", ar: "صباح الناصر", governorate: "farwaniya" },

  // Mubarak Al-Kabeer (مبارك الكبير)
  {
    en: "Abu Al-Hasaniya",
    ar: "أبو الحصانية",
    governorate: "mubarak_al_kabeer",
  },
  { en: "Abu Futaira", ar: "أبو فطيرة", governorate: "mubarak_al_kabeer" },
  { en: "Adan", ar: "العدان", governorate: "mubarak_al_kabeer" },
  { en: "Fnaitees", ar: "الفنيطيس", governorate: "mubarak_al_kabeer" },
  { en: "Masayel", ar: "المسايل", governorate: "mubarak_al_kabeer" },
  { en: "Messila", ar: "المسيلة", governorate: "mubarak_al_kabeer" },
  {
    en: "Mubarak Al-Kabeer",
    ar: "مبارك الكبير",
    governorate: "mubarak_al_kabeer",
  },
  { en: "Qurain", ar: "القرين", governorate: "mubarak_al_kabeer" },
  { en: "Qusour", ar: "القصور", governorate: "mubarak_al_kabeer" },
  { en: "Sabah Al-Salem", ar: "صباح السالم", governorate: "mubarak_al_kabeer" },

  // Ahmadi (الأحمدي)
  { en: "Abu Halifa", ar: "أبو حليفة", governorate: "ahmadi" },
  { en: "Ahmadi", ar: "الأحمدي", governorate: "ahmadi" },
  { en: "Ali Sabah Al-Salem", ar: "علي صباح السالم", governorate: "ahmadi" },
  { en: "Dhaher", ar: "الظهر", governorate: "ahmadi" },
  { en: "Egaila", ar: "العقيلة", governorate: "ahmadi" },
  { en: "Fahad Al-Ahmad", ar: "فهد الأحمد", governorate: "ahmadi" },
  { en: "Fahaheel", ar: "الفحيحيل", governorate: "ahmadi" },
  { en: "Fintas", ar: "الفنطاس", governorate: "ahmadi" },
  { en: "Hadiya", ar: "هدية", governorate: "ahmadi" },
  { en: "Jaber Al-Ali", ar: "جابر العلي", governorate: "ahmadi" },
  { en: "Khairan", ar: "الخيران", governorate: "ahmadi" },
  { en: "Mahboula", ar: "المهبولة", governorate: "ahmadi" },
  { en: "Mangaf", ar: "المنقف", governorate: "ahmadi" },
  { en: "Riqqa", ar: "الرقة", governorate: "ahmadi" },
  { en: "Sabah Al-Ahmad City", ar: "مدينة صباح الأحمد", governorate: "ahmadi" },
  { en: "Sabahiya", ar: "الصباحية", governorate: "ahmadi" },
  { en: "Wafra", ar: "الوفرة", governorate: "ahmadi" },
  { en: "Zour", ar: "الزور", governorate: "ahmadi" },

  // Jahra (الجهراء)
  { en: "Jahra", ar: "الجهراء", governorate: "jahra" },
  { en: "Mutlaa", ar: "المطلاع", governorate: "jahra" },
  { en: "Naeem", ar: "النعيم", governorate: "jahra" },
  { en: "Naseem", ar: "النسيم", governorate: "jahra" },
  { en: "Oyoun", ar: "العيون", governorate: "jahra" },
  { en: "Qasr", ar: "القصر", governorate: "jahra" },
  { en: "Saad Al-Abdullah", ar: "سعد العبدالله", governorate: "jahra" },
  { en: "Subiya", ar: "الصبية", governorate: "jahra" },
  { en: "Sulaibiya", ar: "الصليبية", governorate: "jahra" },
  { en: "Taima", ar: "تيماء", governorate: "jahra" },
  { en: "Waha", ar: "الواحة", governorate: "jahra" },
];

export const KUWAIT_AREAS_EN: readonly string[] = KUWAIT_AREAS.map((a) => a.en);

export const KUWAIT_AREAS_AR: readonly string[] = KUWAIT_AREAS.map((a) => a.ar);

const ALL_NAMES: ReadonlySet<string> = new Set([...KUWAIT_AREAS_EN, ...KUWAIT_AREAS_AR]);

/** True when `value` is exactly one of the English or Arabic area names. */
export function isKuwaitArea(value: string): boolean {
  return ALL_NAMES.has(value);
}

/** An area's name in `lang` when it is one of the known areas; otherwise the name as it was typed. */
export function kuwaitAreaIn(value: string, lang: "en" | "ar"): string {
  const area = KUWAIT_AREAS.find((candidate) => candidate.en === value || candidate.ar === value);
  return area ? area[lang] : value;
}
