/**
 * What the browser runs in place of i18next and react-i18next (vite.config.ts points both names here
 * in the client build only; the server renders with the real ones). The pages use one catalogue per
 * language with `{{name}}` values and nothing else i18next offers (no plurals, nesting or formats), so
 * this is all the browser needs to render the same texts the server rendered, at a tenth of the
 * weight (docs/decisions/0020). browser-i18n.test.ts checks every text of both catalogues comes out
 * as i18next writes it.
 */
import { createContext, createElement, useContext, type ReactNode } from "react";

type Catalogue = { [key: string]: string | Catalogue };
type Values = { [name: string]: unknown; defaultValue?: string };
type InitOptions = { lng?: string; resources?: Record<string, Record<string, Catalogue>>; defaultNS?: string };

const RTL_LANGUAGES = new Set(["ar", "fa", "he", "ur", "ps", "sd", "ug", "yi", "dv", "ku"]);

/** `{{ name }}` replaced by its value, as i18next does: a value not given keeps the placeholder, null empties it. */
function interpolate(text: string, values: Values | undefined) {
  if (!text.includes("{{")) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (placeholder, name: string) => {
    const value = values?.[name];
    if (value === undefined) return placeholder;
    return value === null ? "" : String(value);
  });
}

export class BrowserI18n {
  language = "en";
  languages: string[] = ["en"];
  isInitialized = false;
  private catalogue: Catalogue = {};

  use(plugin: { type?: string; init?: (instance: BrowserI18n) => void }) {
    plugin.init?.(this);
    return this;
  }

  async init(options: InitOptions = {}) {
    this.language = options.lng ?? "en";
    this.languages = [this.language];
    const namespaces = options.resources?.[this.language] ?? {};
    this.catalogue = namespaces[options.defaultNS ?? "common"] ?? Object.values(namespaces)[0] ?? {};
    this.isInitialized = true;
    return this.t;
  }

  private lookup(key: string): string | undefined {
    let value: string | Catalogue | undefined = this.catalogue;
    for (const part of key.split(".")) {
      if (typeof value !== "object") return undefined;
      value = value[part];
    }
    return typeof value === "string" ? value : undefined;
  }

  exists = (key: string) => this.lookup(key) !== undefined;

  t = (key: string | string[], values?: Values): string => {
    const keys = Array.isArray(key) ? key : [key];
    for (const candidate of keys) {
      const text = this.lookup(candidate);
      if (text !== undefined) return interpolate(text, values);
    }
    return interpolate(values?.defaultValue ?? keys[keys.length - 1], values);
  };

  dir = (language: string = this.language) => (RTL_LANGUAGES.has(language.split("-")[0]) ? "rtl" : "ltr");

  /** Texts a page brings with it (app/lib/i18n.ts PAGE_NAMESPACES), added to the language's catalogue. */
  addResourceBundle = (language: string, _namespace: string, resources: Catalogue) => {
    if (language !== this.language) return this;
    this.catalogue = { ...this.catalogue, ...resources };
    return this;
  };

  changeLanguage = async (language: string) => {
    this.language = language;
    return this.t;
  };
}

const instance = new BrowserI18n();
let globalInstance: BrowserI18n = instance;

export default instance;

export const initReactI18next = {
  type: "3rdParty" as const,
  init(i18n: BrowserI18n) {
    globalInstance = i18n;
  },
};

export const I18nContext = createContext<{ i18n?: BrowserI18n; defaultNS?: string }>({});

export function I18nextProvider({
  i18n,
  defaultNS,
  children,
}: {
  i18n: BrowserI18n;
  defaultNS?: string;
  children?: ReactNode;
}) {
  return createElement(I18nContext.Provider, { value: { i18n, defaultNS } }, children);
}

export function useTranslation() {
  const i18n = useContext(I18nContext).i18n ?? globalInstance;
  return { t: i18n.t, i18n, ready: true };
}
