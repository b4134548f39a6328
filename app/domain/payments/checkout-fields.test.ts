import { describe, expect, it } from "vitest";
import {
  checkFieldSettings,
  checkValue,
  checkValues,
  isReservedName,
  isValidCivilId,
  type CheckoutFieldRule,
  type CheckoutFieldSettings,
} from "./checkout-fields";

const rule = (
  validator: CheckoutFieldRule["validator"],
  extra: Partial<CheckoutFieldRule> = {},
): CheckoutFieldRule => ({ name: "field", validator, required: true, max_length: 100, ...extra });
const value = (field: CheckoutFieldRule, raw: unknown) => checkValue(field, raw);

describe("a Kuwaiti civil ID", () => {
  it("is 12 digits whose last is 11 − (the weighted sum of the first 11 mod 11)", () => {
    for (const id of ["289010112348", "295123101232", "300010100018", "285010100007", "278061501235"])
      expect(isValidCivilId(id), id).toBe(true);
  });

  it("is refused with a wrong check digit, another length, or anything but digits", () => {
    for (const id of [
      "289010112349",
      "289010112340",
      "28901011234",
      "2890101123480",
      "28901011234a",
      "",
      "2890 1011 2348",
    ])
      expect(isValidCivilId(id), id).toBe(false);
  });

  it("cannot end in a check of 10 or 11: no digit is right when the sum leaves 1 or 0", () => {
    for (const base of ["28901011233", "28901011238"]) {
      for (let digit = 0; digit <= 9; digit++) expect(isValidCivilId(`${base}${digit}`)).toBe(false);
    }
  });

  it("is taken as typed on an Arabic keyboard, or with spaces, and stored as 12 ASCII digits", () => {
    expect(value(rule("civil_id"), "٢٨٩٠١٠١١٢٣٤٨")).toEqual({ ok: true, value: "289010112348" });
    expect(value(rule("civil_id"), " 2890 1011 2348 ")).toEqual({ ok: true, value: "289010112348" });
    expect(value(rule("civil_id"), "289010112349")).toEqual({
      ok: false,
      error: { code: "checkout_fields.errors.civil_id" },
    });
  });
});

describe("a customer's value", () => {
  it("is required when the field is, and an optional one may stay empty", () => {
    for (const raw of [undefined, null, "", "   "])
      expect(value(rule("text"), raw)).toEqual({ ok: false, error: { code: "checkout_fields.errors.required" } });
    expect(value(rule("text", { required: false }), " ")).toEqual({ ok: true, value: null });
    // An optional field is still checked when it is filled in.
    expect(value(rule("digits", { required: false }), "12a")).toEqual({
      ok: false,
      error: { code: "checkout_fields.errors.digits" },
    });
  });

  it("is at most the field's length, counted in characters, after trimming", () => {
    expect(value(rule("text", { max_length: 5 }), "  abcde  ")).toEqual({ ok: true, value: "abcde" });
    expect(value(rule("text", { max_length: 5 }), "abcdef")).toEqual({
      ok: false,
      error: { code: "checkout_fields.errors.too_long", params: { max: 5 } },
    });
    expect(value(rule("text", { max_length: 5 }), "مرحبًا")).toEqual({
      ok: false,
      error: { code: "checkout_fields.errors.too_long", params: { max: 5 } },
    });
    expect(value(rule("text", { max_length: 6 }), "مرحبًا")).toEqual({ ok: true, value: "مرحبًا" });
  });

  it("is text without control characters", () => {
    expect(value(rule("text"), "line one\nline two\t")).toEqual({ ok: true, value: "line one line two" });
    expect(value(rule("text"), { nested: true })).toEqual({
      ok: false,
      error: { code: "checkout_fields.errors.invalid" },
    });
    expect(value(rule("text"), ["a"])).toEqual({ ok: false, error: { code: "checkout_fields.errors.invalid" } });
  });

  it("is an e-mail address", () => {
    expect(value(rule("email"), "fatima@example.com")).toEqual({ ok: true, value: "fatima@example.com" });
    for (const raw of ["fatima", "fatima@", "fatima@example", "a b@example.com", "@example.com"])
      expect(value(rule("email"), raw).ok, raw).toBe(false);
  });

  it("is a phone number: 8 digits in Kuwait, or + and a country code", () => {
    expect(value(rule("phone"), "5000 1234")).toEqual({ ok: true, value: "50001234" });
    expect(value(rule("phone"), "+965 5000-1234")).toEqual({ ok: true, value: "+96550001234" });
    expect(value(rule("phone"), "+44 (20) 7946 0958")).toEqual({ ok: true, value: "+442079460958" });
    expect(value(rule("phone"), "٥٠٠٠١٢٣٤")).toEqual({ ok: true, value: "50001234" });
    for (const raw of ["5000123", "500012345", "96550001234", "+965", "+1234567890123456", "5000abcd"]) {
      expect(value(rule("phone"), raw), raw).toEqual({ ok: false, error: { code: "checkout_fields.errors.phone" } });
    }
  });

  it("is digits only, or a decimal number", () => {
    expect(value(rule("digits"), "00123")).toEqual({ ok: true, value: "00123" });
    expect(value(rule("digits"), "١٢٣")).toEqual({ ok: true, value: "123" });
    for (const raw of ["12.5", "-1", "12 3", "1e3"]) expect(value(rule("digits"), raw).ok, raw).toBe(false);
    for (const [raw, stored] of [
      ["12", "12"],
      ["12.50", "12.50"],
      ["-3.5", "-3.5"],
      ["١٢٫٥", "12.5"],
      [7, "7"],
    ] as const) {
      expect(value(rule("number"), raw)).toEqual({ ok: true, value: stored });
    }
    for (const raw of ["12.", ".5", "1,000", "1e3", "twelve"])
      expect(value(rule("number"), raw), raw).toEqual({ ok: false, error: { code: "checkout_fields.errors.number" } });
  });
});

describe("a customer's values", () => {
  const fields = [rule("civil_id", { name: "civil_id" }), rule("digits", { name: "student_number", required: false })];

  it("are answered by field name: what to store, and optional fields sent empty", () => {
    expect(checkValues(fields, { civil_id: "289010112348", student_number: "" }, { refuseUnknown: true })).toEqual({
      ok: true,
      values: { civil_id: "289010112348" },
      cleared: ["student_number"],
    });
  });

  it("are refused field by field, and names no field has are refused only when asked (the API)", () => {
    const input = { civil_id: "289010112349", student_number: "x", colour: "red" };
    expect(checkValues(fields, input, { refuseUnknown: true })).toEqual({
      ok: false,
      errors: {
        colour: [{ code: "checkout_fields.errors.unknown" }],
        civil_id: [{ code: "checkout_fields.errors.civil_id" }],
        student_number: [{ code: "checkout_fields.errors.digits" }],
      },
    });
    expect(checkValues(fields, { civil_id: "289010112348", colour: "red" }, { refuseUnknown: false })).toMatchObject({
      ok: true,
    });
  });
});

describe("a merchant's field", () => {
  const current: CheckoutFieldSettings = {
    name: "civil_id",
    label_en: "Civil ID",
    label_ar: "الرقم المدني",
    placeholder_en: null,
    placeholder_ar: null,
    validator: "civil_id",
    required: true,
    max_length: 12,
    is_active: true,
    position: 1,
  };

  it("is made with a name, both labels and a validator; the length defaults to the kind of value", () => {
    expect(
      checkFieldSettings(
        { name: "civil_id", label_en: " Civil ID ", label_ar: "الرقم المدني", validator: "civil_id", required: true },
        "json",
      ),
    ).toEqual({
      ok: true,
      changes: {
        name: "civil_id",
        label_en: "Civil ID",
        label_ar: "الرقم المدني",
        validator: "civil_id",
        required: true,
        max_length: 12,
      },
    });
    expect(checkFieldSettings({ name: "note", label_en: "Note", label_ar: "ملاحظة" }, "json")).toMatchObject({
      ok: true,
      changes: { validator: "text", max_length: 100 },
    });
    expect(
      checkFieldSettings(
        { name: "Civil ID", label_en: "", validator: "passport", max_length: 300, colour: "red" },
        "json",
      ),
    ).toEqual({
      ok: false,
      errors: {
        colour: ["api.read_only_field"],
        name: ["checkout_fields.errors.name"],
        label_en: ["checkout_fields.errors.label"],
        label_ar: ["checkout_fields.errors.label"],
        validator: ["api.invalid_choice"],
        max_length: ["checkout_fields.errors.max_length"],
      },
    });
  });

  it("cannot be too short for its kind of value", () => {
    expect(
      checkFieldSettings(
        { name: "cid", label_en: "ID", label_ar: "هوية", validator: "civil_id", max_length: 11 },
        "json",
      ),
    ).toEqual({ ok: false, errors: { max_length: ["checkout_fields.errors.max_length_validator"] } });
    // Changing the kind of a short text field to a phone number is refused the same way.
    expect(
      checkFieldSettings({ validator: "phone" }, "json", { ...current, validator: "text", max_length: 6 }),
    ).toEqual({ ok: false, errors: { max_length: ["checkout_fields.errors.max_length_validator"] } });
  });

  it("changes only what the API sends, never its name, and takes a state and a position", () => {
    expect(checkFieldSettings({ label_en: "Civil ID number", is_active: false, position: 3 }, "json", current)).toEqual(
      { ok: true, changes: { label_en: "Civil ID number", is_active: false, position: 3 } },
    );
    expect(checkFieldSettings({ name: "civil_id" }, "json", current)).toEqual({ ok: true, changes: {} });
    expect(checkFieldSettings({ name: "national_id", required: "yes", position: 0 }, "json", current)).toEqual({
      ok: false,
      errors: {
        name: ["checkout_fields.errors.name_fixed"],
        required: ["api.invalid_boolean"],
        position: ["checkout_fields.errors.position"],
      },
    });
  });

  it("is saved from a page whose unticked box is off, an empty placeholder none, and an empty length unchanged", () => {
    const form = {
      label_en: "Civil ID",
      label_ar: "الرقم المدني",
      placeholder_en: "",
      placeholder_ar: "١٢ رقمًا",
      validator: "civil_id",
      max_length: "",
    };
    expect(checkFieldSettings(form, "form", current)).toEqual({
      ok: true,
      changes: {
        label_en: "Civil ID",
        label_ar: "الرقم المدني",
        placeholder_en: null,
        placeholder_ar: "١٢ رقمًا",
        validator: "civil_id",
        required: false,
      },
    });
    // A page never sends the state or the order: they have buttons of their own.
    expect(
      checkFieldSettings({ ...form, required: "on", is_active: "on", position: "1" }, "form", current),
    ).toMatchObject({ ok: true, changes: { required: true } });
    expect(
      (
        checkFieldSettings({ ...form, required: "on", is_active: "on", position: "1" }, "form", current) as {
          changes: object;
        }
      ).changes,
    ).not.toHaveProperty("position");
  });
});

describe("the names a checkout field may not take", () => {
  it("cover every column of the transaction list and its export, so a field never shares a name with one", async () => {
    const { BUILTIN_FIELDS, OTHER_FIELDS } = await import("~/domain/transactions/fields.server");
    for (const name of [...BUILTIN_FIELDS, ...OTHER_FIELDS]) expect([name, isReservedName(name)]).toEqual([name, true]);
    expect(isReservedName("constructor")).toBe(true);
    expect(isReservedName("civil_id")).toBe(false);
  });
});
