// intl-tel-input and its styles, loaded only by pages with a phone field (lazy import from
// forms.tsx). Its flag images come from the build (the stylesheet's url()s), its number utilities
// are a chunk of their own loaded when the field starts: nothing is fetched from another site.
import intlTelInput from "intl-tel-input";
import "intl-tel-input/styles";
import "./phone-enhancer.css";

export type PhoneEnhancer = {
  /** The number in international form ("+96550001234") when it parses, else what was typed. */
  number(): string;
  /** The selected country, upper case ("KW"). */
  country(): string;
  destroy(): void;
};

export async function enhancePhoneInput(
  input: HTMLInputElement,
  options: { country: string; lang: "en" | "ar"; onChange: () => void },
): Promise<PhoneEnhancer> {
  // The locale's types describe the whole set; one language's module answers its texts as default.
  const uiTranslations =
    options.lang === "ar"
      ? ((await import("intl-tel-input/locale/ar")) as unknown as { default: Record<string, unknown> }).default
      : undefined;
  const iti = intlTelInput(input, {
    initialCountry: options.country.toLowerCase() as never,
    countryOrder: ["kw", "us"],
    countrySearch: true,
    separateDialCode: true,
    showFlags: true,
    countryNameLocale: options.lang,
    ...(uiTranslations ? { uiTranslations: uiTranslations as never } : {}),
    containerClass: "phone-field",
    loadUtils: () => import("intl-tel-input/utils"),
  });
  // The country button shows the dialling code: its accessible name must say what it shows (WCAG 2.5.3).
  const nameTheCountryButton = () => {
    const button = input.closest(".iti")?.querySelector(".iti__selected-country");
    const dialCode = button?.querySelector(".iti__selected-dial-code")?.textContent?.trim();
    const label = button?.getAttribute("aria-label") ?? "";
    // It leads with it, as the eye reads the button, in either language.
    if (button && dialCode && !label.startsWith(dialCode))
      button.setAttribute("aria-label", `${dialCode} ${label}`.trim());
  };
  nameTheCountryButton();
  void iti.promise?.then(nameTheCountryButton);
  const changed = () => {
    nameTheCountryButton();
    options.onChange();
  };
  input.addEventListener("countrychange", changed);
  input.addEventListener("input", changed);
  return {
    number() {
      const typed = input.value.trim();
      if (!typed) return "";
      // The number utilities are a chunk of their own: until they have loaded, the number is put
      // together from the selected dialling code and the digits typed (the server parses it either way).
      if (intlTelInput.utils) return iti.getNumber() || typed;
      const country = iti.getSelectedCountry();
      const latin = typed.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) => String((digit.charCodeAt(0) & 0xf) % 10));
      let digits = latin.replace(/\D/g, "");
      if (latin.startsWith("+") || !country?.dialCode || !digits) return typed;
      if (country.nationalPrefix && digits.startsWith(country.nationalPrefix))
        digits = digits.slice(country.nationalPrefix.length);
      return `+${country.dialCode}${digits}`;
    },
    country() {
      return (iti.getSelectedCountry()?.iso2 ?? options.country).toUpperCase();
    },
    destroy() {
      input.removeEventListener("countrychange", changed);
      input.removeEventListener("input", changed);
      iti.destroy();
    },
  };
}
