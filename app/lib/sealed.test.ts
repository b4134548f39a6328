import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "./env.server";
import { isSealed, seal, unseal } from "./sealed.server";

const saved = { key: process.env.CREDENTIALS_KEY, sqlite: process.env.SQLITE_PATH, database: process.env.DATABASE_URL };

function useKeyFileBeside(dir: string) {
  delete process.env.CREDENTIALS_KEY;
  delete process.env.DATABASE_URL;
  process.env.SQLITE_PATH = path.join(dir, "platform.sqlite");
  resetEnvCache();
}

afterEach(() => {
  for (const [name, value] of [
    ["CREDENTIALS_KEY", saved.key],
    ["SQLITE_PATH", saved.sqlite],
    ["DATABASE_URL", saved.database],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
});

describe("sealed secrets", () => {
  it("round-trip, differ each time, and say nothing of the text", () => {
    const one = seal("tranportal-password-123");
    const two = seal("tranportal-password-123");
    expect(isSealed(one)).toBe(true);
    expect(one).not.toBe(two);
    expect(one).not.toContain("tranportal");
    expect(unseal(one)).toBe("tranportal-password-123");
    // A value written before sealing existed reads as it is.
    expect(unseal('{"apiKey":"x"}')).toBe('{"apiKey":"x"}');
  });

  it("are refused under another key, and a tampered one is refused", () => {
    const sealed = seal("secret");
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}`;
    expect(() => unseal(tampered)).toThrow();
    process.env.CREDENTIALS_KEY = "another-key-of-at-least-thirty-two-characters";
    resetEnvCache();
    expect(() => unseal(sealed)).toThrow();
  });

  it("without CREDENTIALS_KEY, make one key file beside the SQLite file, and refuse one that holds no key", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-sealed-"));
    try {
      useKeyFileBeside(dir);
      const sealed = seal("secret");
      const file = path.join(dir, "credentials.key");
      expect(fs.readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}$/);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(unseal(sealed)).toBe("secret");
      expect(fs.readdirSync(dir)).toEqual(["credentials.key"]);

      const empty = fs.mkdtempSync(path.join(os.tmpdir(), "kp-sealed-empty-"));
      fs.writeFileSync(path.join(empty, "credentials.key"), "");
      useKeyFileBeside(empty);
      expect(() => seal("secret")).toThrow(/does not hold a key/);
      fs.rmSync(empty, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is required from the environment on Postgres, where instances share the database", () => {
    delete process.env.CREDENTIALS_KEY;
    process.env.DATABASE_URL = "postgres://somewhere/db";
    resetEnvCache();
    expect(() => seal("secret")).toThrow(/CREDENTIALS_KEY: must be set when DATABASE_URL is/);
  });
});
