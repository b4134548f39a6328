import { afterEach, describe, expect, it } from "vitest";
import { dropBlankRows, nestedFormValues } from "./form-object";
import { formObject as catalogueForm } from "~/sections/catalogue/presentation/forms.server";
import { formObject as collectorForm } from "~/sections/customer-payment/domain/form-object";
import { formObject as foodForm } from "~/sections/food-ordering/presentation/setup-forms.server";

const form = (fields: [string, string][]) => {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return body;
};

const read = (fields: [string, string][]) => nestedFormValues(form(fields), { maxDepth: 6, indexDigits: 3 });

// What a hostile name would have written, were it followed.
const POLLUTED = ["polluted", "isAdmin", "x"];

afterEach(() => {
  for (const key of POLLUTED) {
    delete (Object.prototype as Record<string, unknown>)[key];
    delete (Array.prototype as unknown as Record<string, unknown>)[key];
  }
});

describe("a posted form as nested values", () => {
  it("builds lists and objects from the names a page gives its fields", () => {
    const values = read([
      ["name_en", "Oud"],
      ["images[0].id", "4"],
      ["images[0].position", "2"],
      ["images[1].remove", "on"],
      ["limits.KWD.min", "1.000"],
    ]);
    expect(values).toEqual({
      name_en: "Oud",
      images: [{ id: "4", position: "2" }, { remove: "on" }],
      limits: { KWD: { min: "1.000" } },
    });
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(values.limits)).toBe(Object.prototype);
  });

  it.each([
    ["constructor[prototype][polluted]", "yes"],
    ["constructor.prototype.polluted", "yes"],
    ["__proto__[polluted]", "yes"],
    ["__proto__.polluted", "yes"],
    ["images[0][__proto__][polluted]", "yes"],
    ["images[0][constructor][prototype][isAdmin]", "true"],
    ["a[prototype][x]", "1"],
  ])("never writes outside the object it builds through %s", (name, value) => {
    const values = read([
      ["images[0].id", "1"],
      [name, value],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(values).toEqual({ images: [{ id: "1" }] });
  });

  it("takes only indices into a list, and never goes through a value given as text", () => {
    expect(() =>
      read([
        ["images[0].id", "1"],
        ["images.length", "99999999999"],
        ["images.push.x", "1"],
      ]),
    ).not.toThrow();
    expect(
      read([
        ["images[0].id", "1"],
        ["images.length", "9"],
        ["images.push.x", "1"],
      ]),
    ).toEqual({ images: [{ id: "1" }] });
    expect(([] as unknown as Record<string, unknown>).x).toBeUndefined();
    expect(
      read([
        ["a", "1"],
        ["a[b]", "2"],
      ]),
    ).toEqual({ a: "1" });
    expect(
      read([
        ["a[b]", "2"],
        ["a", "1"],
      ]),
    ).toEqual({ a: { b: "2" } });
  });

  it("leaves out files, names deeper than allowed, and what the page says to skip", () => {
    const body = form([
      ["a.b.c", "deep"],
      ["_pending", "key"],
      ["ok", "1"],
    ]);
    body.append("picture", new File(["x"], "x.png"));
    expect(nestedFormValues(body, { maxDepth: 2, indexDigits: 2, skip: (name) => name.startsWith("_") })).toEqual({
      ok: "1",
    });
  });

  it("drops the rows of a list left blank", () => {
    expect(dropBlankRows({ sizes: [{ name: "S" }, { name: " " }, undefined, { name: "L" }] })).toEqual({
      sizes: [{ name: "S" }, { name: "L" }],
    });
  });

  it("is what the catalogue's, the food set-up's and the collectors' forms read, hostile names ignored", () => {
    const hostile: [string, string][] = [
      ["name_en", "Oud"],
      ["constructor[prototype][polluted]", "yes"],
      ["images[0][__proto__][polluted]", "yes"],
      ["text_fields[0][constructor][prototype][polluted]", "yes"],
    ];
    expect(catalogueForm(form(hostile))).toEqual({ name_en: "Oud" });
    expect(foodForm(form(hostile))).toEqual({ name_en: "Oud" });
    expect(collectorForm(form([...hostile, ["currencies", "KWD"]]), ["currencies"])).toEqual({
      name_en: "Oud",
      currencies: ["KWD"],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
