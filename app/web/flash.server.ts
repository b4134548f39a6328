import { readCookie } from "./session-cookie.server";

const FLASH_COOKIE = "kp_flash";

/** A notice shown once on the next page, e.g. after a redirect. Holds a translation key only. */
export type Flash = { kind: "success" | "error" | "info"; message: string };

const allowedKinds = new Set(["success", "error", "info"]);

export function flashCookie(flash: Flash) {
  const value = encodeURIComponent(JSON.stringify(flash));
  return `${FLASH_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readFlash(request: Request): { flash: Flash | null; clear: string | null } {
  const raw = readCookie(request, FLASH_COOKIE);
  if (!raw) return { flash: null, clear: null };
  const clear = `${FLASH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
  try {
    const parsed = JSON.parse(raw);
    // Only translation keys are ever shown, so a forged cookie can at most pick another message.
    if (
      allowedKinds.has(parsed.kind) &&
      typeof parsed.message === "string" &&
      /^[a-z0-9_.]{1,80}$/.test(parsed.message)
    ) {
      return { flash: { kind: parsed.kind, message: parsed.message }, clear };
    }
  } catch {}
  return { flash: null, clear };
}
