/** The rules a new password must meet, as translation keys, in the order they are shown (server and browser). */
export const PASSWORD_RULES: readonly string[] = [
  "password_rules.similar",
  "password_rules.min_length",
  "password_rules.common",
  "password_rules.numeric",
  "password_rules.special",
  "password_rules.digit",
  "password_rules.upper",
];
