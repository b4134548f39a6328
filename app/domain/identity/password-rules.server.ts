import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type PasswordRuleError =
  | "password.too_short"
  | "password.too_similar"
  | "password.too_common"
  | "password.entirely_numeric"
  | "password.needs_special"
  | "password.needs_digit"
  | "password.needs_upper";

export type PasswordUserAttributes = {
  username?: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
};

export const PASSWORD_MIN_LENGTH = 8;
const MAX_SIMILARITY = 0.7;

export { PASSWORD_RULES } from "./password-rule-keys";

// Python's re \W with str patterns: anything that is not alphanumeric or "_".
const NON_WORD = /[^\p{L}\p{N}_]+/u;

let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  if (!commonPasswords) {
    // When bundled into build/server/index.js, import.meta.url points at the
    // bundle, so fall back to the source location relative to the app root.
    const url = new URL("./common-passwords.txt", import.meta.url);
    const local = url.protocol === "file:" ? fileURLToPath(url) : "";
    const file =
      local && fs.existsSync(local) ? local : path.resolve(process.cwd(), "app/domain/identity/common-passwords.txt");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    commonPasswords = new Set(lines.map((line) => line.trim()).filter(Boolean));
  }
  return commonPasswords;
}

function countChars(chars: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  return counts;
}

// difflib.SequenceMatcher.quick_ratio, with the password's counts precomputed
// so checking many attribute parts stays linear.
function ratioAgainst(aCounts: Map<string, number>, aLen: number, bChars: string[]): number {
  const total = aLen + bChars.length;
  if (total === 0) return 1;
  let matches = 0;
  for (const [c, n] of countChars(bChars)) matches += Math.min(n, aCounts.get(c) ?? 0);
  return (2 * matches) / total;
}

export function quickRatio(a: string, b: string): number {
  const aChars = Array.from(a);
  return ratioAgainst(countChars(aChars), aChars.length, Array.from(b));
}

export function exceedsMaximumLengthRatio(password: string, maxSimilarity: number, value: string): boolean {
  return exceedsLengthRatio(Array.from(password).length, maxSimilarity, Array.from(value).length);
}

function exceedsLengthRatio(pwdLen: number, maxSimilarity: number, valueLen: number): boolean {
  const lengthBoundSimilarity = (maxSimilarity / 2) * pwdLen;
  return pwdLen >= 10 * valueLen && valueLen < lengthBoundSimilarity;
}

function isTooSimilar(password: string, user: PasswordUserAttributes): boolean {
  const pwd = password.toLowerCase();
  const pwdChars = Array.from(pwd);
  const pwdLen = pwdChars.length;
  const pwdCounts = countChars(pwdChars);
  const values = [user.username, user.firstName, user.lastName, user.email];
  for (const value of values) {
    if (!value) continue;
    const valueLower = value.toLowerCase();
    if (exceedsLengthRatio(pwdLen, MAX_SIMILARITY, Array.from(valueLower).length)) continue;
    const parts = [...valueLower.split(NON_WORD).filter(Boolean), valueLower];
    for (const part of parts) {
      const partChars = Array.from(part);
      if (exceedsLengthRatio(pwdLen, MAX_SIMILARITY, partChars.length)) continue;
      if (ratioAgainst(pwdCounts, pwdLen, partChars) >= MAX_SIMILARITY) return true;
    }
  }
  return false;
}

export function validatePassword(password: string, user: PasswordUserAttributes): PasswordRuleError[] {
  const errors: PasswordRuleError[] = [];
  if (Array.from(password).length < PASSWORD_MIN_LENGTH) errors.push("password.too_short");
  if (isTooSimilar(password, user)) errors.push("password.too_similar");
  if (loadCommonPasswords().has(password.toLowerCase().trim())) errors.push("password.too_common");
  if (/^\p{Nd}+$/u.test(password)) errors.push("password.entirely_numeric");
  if (!/[^\p{L}\p{N}]/u.test(password)) errors.push("password.needs_special");
  if (!/[0-9]/.test(password)) errors.push("password.needs_digit");
  if (!/\p{Lu}/u.test(password)) errors.push("password.needs_upper");
  return errors;
}
