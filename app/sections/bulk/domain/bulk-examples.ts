import { ALL_COLUMNS, REQUIRED_COLUMNS } from "./bulk-columns";

/**
 * The example files' rows (the header and believable rows: required fields only, or every column),
 * which are also the demo merchant's sample bulk. Each row of the required-fields file has both an
 * e-mail and a phone, so that it uploads whichever channel the form chooses.
 */
export function exampleRows(type: "required_fields" | "all_fields"): string[][] {
  if (type === "required_fields") {
    return [
      [...REQUIRED_COLUMNS],
      ["125.000", "fatima.alsabah@example.com", "+96550001234"],
      ["98.500", "ahmad.almutairi@example.com", "55001234"],
      ["210.750", "yousef.alenezi@example.com", "+96566001234"],
    ];
  }
  return [
    [...ALL_COLUMNS],
    [
      "125.000",
      "fatima.alsabah@example.com",
      "+96550001234",
      "KWD",
      "Fatima",
      "Al-Sabah",
      "Rent — Flat 12, Salmiya",
      "Month:March~Flat:12",
      "",
      "",
      "yes",
      "no",
      "ar",
      "no",
      "",
      "",
      "",
    ],
    [
      "450.000",
      "yousef.alenezi@example.com",
      "+96566001234",
      "KWD",
      "Yousef",
      "Al-Enezi",
      "School fees, term 2",
      "Student:Sara Al-Enezi~Grade:5",
      "",
      "",
      "yes",
      "yes",
      "en",
      "yes",
      "100.000",
      "450.000",
      "https://school.example.com/thanks",
    ],
    [
      "98.500",
      "",
      "+96599001234",
      "",
      "Ahmad",
      "Al-Mutairi",
      "Gym membership",
      "",
      "",
      "",
      "",
      "yes",
      "ar",
      "",
      "",
      "",
      "",
    ],
  ];
}
