import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATION_NAMES } from "../migrate.server";
import manifest from "./manifest.json";

/**
 * A landed migration has run on databases this code never sees again: editing it would leave them
 * with a schema the code does not know. manifest.json keeps each one's SHA-256 as it landed; a change
 * is a new migration. Adding one: migrate.server.ts finds it by its name; add its line here
 * (`sha256sum app/db/migrations/NNNN-name.ts`), the message below gives it.
 */
const folder = path.dirname(new URL(import.meta.url).pathname);
const recorded: Record<string, string> = manifest;
const files = fs.readdirSync(folder).filter((name) => /^\d{4}-[a-z0-9-]+\.ts$/.test(name) && !name.endsWith(".test.ts"));
const sha256 = (name: string) => createHash("sha256").update(fs.readFileSync(path.join(folder, name))).digest("hex");

describe("the migrations as they landed", () => {
  it("are every one registered, in the manifest, in the order of their numbers", () => {
    expect(MIGRATION_NAMES.map((name) => `${name}.ts`)).toEqual([...files].sort());
    const missing = files.filter((name) => !(name in recorded)).map((name) => `"${name}": "${sha256(name)}"`);
    expect(missing, `a new migration: add its line to app/db/migrations/manifest.json`).toEqual([]);
  });

  it("are never edited nor removed once landed", () => {
    for (const [name, hash] of Object.entries(recorded)) {
      expect(fs.existsSync(path.join(folder, name)), `${name} was removed`).toBe(true);
      expect(sha256(name), `${name} was edited after it landed: write a new migration instead`).toBe(hash);
    }
  });
});
