import type { Language } from "./i18n";
import type { TextParams } from "./outcome";

/**
 * The words the platform writes outside a page — mails, text messages, notices, audit lines — are
 * presentation (app/presentation/texts.server.ts). The domain asks for them by code (a translation
 * key) and parameters through this port, which the platform connects when it starts (app/boot).
 */
export interface Texts {
  /** The sentence of a code with its parameters, in `lang`. */
  line(key: string, params: TextParams, lang: Language): string;
}

let connected: Texts | undefined;

export function connectTexts(texts: Texts) {
  connected = texts;
}

export function texts(): Texts {
  if (!connected) throw new Error("texts: not connected (start the platform through app/boot)");
  return connected;
}
