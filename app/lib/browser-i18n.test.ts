import { describe, expect, it } from "vitest";
import i18next from "i18next";
import ar from "../../locales/ar/common.json";
import en from "../../locales/en/common.json";
import { BrowserI18n } from "./browser-i18n";

type Catalogue = { [key: string]: string | Catalogue };

function* textsOf(catalogue: Catalogue, prefix = ""): Generator<[string, string]> {
  for (const [name, value] of Object.entries(catalogue)) {
    if (typeof value === "string") yield [`${prefix}${name}`, value];
    else yield* textsOf(value, `${prefix}${name}.`);
  }
}

async function both(lang: "en" | "ar", common: Catalogue) {
  const reference = i18next.createInstance();
  await reference.init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { common } },
    ns: ["common"],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const browser = new BrowserI18n();
  await browser.init({ lng: lang, resources: { [lang]: { common } }, defaultNS: "common" });
  return { reference, browser };
}

describe("the browser's translator writes every text as the server's i18next does", () => {
  for (const [lang, catalogue] of [
    ["en", en],
    ["ar", ar],
  ] as const) {
    it(`every key of locales/${lang}/common.json, with and without its values`, async () => {
      const { reference, browser } = await both(lang, catalogue as Catalogue);
      let compared = 0;
      for (const [key, text] of textsOf(catalogue as Catalogue)) {
        const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]);
        const values = Object.fromEntries(names.map((name, index) => [name, index % 2 ? 1234.5 : `«${name}»`]));
        expect(browser.t(key, values), key).toBe(reference.t(key, values));
        expect(browser.t(key), key).toBe(reference.t(key));
        if (names.length)
          expect(browser.t(key, { [names[0]]: null }), key).toBe(reference.t(key, { [names[0]]: null }));
        compared++;
      }
      expect(compared).toBeGreaterThan(500);
    });
  }

  it("a missing key, a default value, a list of keys, a count and the direction", async () => {
    const { reference, browser } = await both("ar", ar as Catalogue);
    for (const [key, values] of [
      ["no.such.key", undefined],
      ["no.such.key", { defaultValue: "Plain {{name}}", name: "x" }],
      ["login.title", { unused: null }],
      ["login.title", { count: 3 }],
    ] as const) {
      expect(browser.t(key, values as Record<string, unknown> | undefined)).toBe(
        reference.t(key, values as Record<string, unknown> | undefined),
      );
    }
    expect(browser.t(["no.such.key", "login.title"])).toBe(reference.t(["no.such.key", "login.title"]));
    expect(browser.exists("login.title")).toBe(true);
    expect(browser.exists("login")).toBe(false);
    expect(browser.dir()).toBe(reference.dir());
    expect(browser.dir("en")).toBe(reference.dir("en"));
  });
});
