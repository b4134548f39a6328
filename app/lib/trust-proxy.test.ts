import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "./env.server";

describe("TRUST_PROXY", () => {
  it("is off unset, empty, 0 or false", () => {
    for (const value of [undefined, "", "0", "false"])
      expect(parseTrustProxy(value)).toEqual({ ok: true, setting: false });
  });

  it("takes a number of hops, so the entry the nearest proxy appended names the client", () => {
    expect(parseTrustProxy("1")).toEqual({ ok: true, setting: 1 });
    expect(parseTrustProxy(" 2 ")).toEqual({ ok: true, setting: 2 });
    expect(parseTrustProxy("11").ok).toBe(false);
  });

  it("takes the proxies' addresses and CIDR ranges", () => {
    expect(parseTrustProxy("10.0.0.0/8, 172.16.0.0/12,fd00::/8, 127.0.0.1")).toEqual({
      ok: true,
      setting: ["10.0.0.0/8", "172.16.0.0/12", "fd00::/8", "127.0.0.1"],
    });
  });

  it("refuses true, which would let the client write its own address, and anything unreadable", () => {
    for (const value of ["true", "yes", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "proxy.internal", "10.0.0.0/8,"]) {
      const parsed = parseTrustProxy(value);
      if (value === "10.0.0.0/8,") expect(parsed).toEqual({ ok: true, setting: ["10.0.0.0/8"] });
      else expect(parsed.ok, value).toBe(false);
    }
  });
});
