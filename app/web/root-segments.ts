/** The platform's own URL segments outside /:lang/: routes.ts defines them, and the language middleware leaves them alone. */
export const CORE_ROOT_SEGMENTS = [
  "api",
  "healthz",
  "readyz",
  "__test",
  "sandbox",
  "gateway",
  "vendor",
  "media",
  ".well-known",
] as const;
