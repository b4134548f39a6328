import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function flatten(value: unknown, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (child && typeof child === "object") for (const [k, v] of flatten(child, full)) keys.set(k, v);
    else keys.set(full, String(child));
  }
  return keys;
}

function catalogue(lang: string) {
  const dir = path.resolve("locales", lang);
  const result = new Map<string, string>();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".json"))) {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    for (const [key, text] of flatten(parsed)) result.set(`${file}:${key}`, text);
  }
  return result;
}

describe("translations", () => {
  const en = catalogue("en");
  const ar = catalogue("ar");

  it("have the same keys in English and Arabic", () => {
    expect([...en.keys()].filter((key) => !ar.has(key))).toEqual([]);
    expect([...ar.keys()].filter((key) => !en.has(key))).toEqual([]);
  });

  it("keep the same interpolation variables in both languages", () => {
    const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const [key, text] of en) expect(variables(ar.get(key) ?? ""), key).toEqual(variables(text));
  });

  it("have no empty texts", () => {
    for (const [key, text] of [...en, ...ar]) expect(text.trim(), key).not.toBe("");
  });

  it("cover every translation key used in the code", () => {
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) {
          const source = fs.readFileSync(full, "utf8");
          for (const match of source.matchAll(/\bt\(\s*"([a-z_]+(?:\.[a-z0-9_]+)+)"/g)) used.add(match[1]);
          for (const match of source.matchAll(/"((?:errors|login|reset|password|forgot|session|api)\.[a-z_]+)"/g))
            used.add(match[1]);
        }
      }
    };
    walk(path.resolve("app"));
    const missing = [...used].filter((key) => !en.has(`common.json:${key}`));
    expect(missing).toEqual([]);
  });
});
