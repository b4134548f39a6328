import { describe, expect, it } from "vitest";
import { isRefusedHost, siteHost } from "./sites.server";

describe("a code-pairing site's host", () => {
  it.each([
    "http://localhost.:3000/",
    "localhost..",
    "https://2130706433/",
    "http://0x7f.1/",
    "0177.0.0.1",
    "http://0.0.0.0:8080",
    "169.254.169.254",
    "http://10.0.0.8/",
    "printer.local",
    "metadata.google.internal.",
  ])("refuses %s, which is this machine or a private network", (entered) => {
    const host = siteHost(entered);
    expect(host === null || isRefusedHost(host, "https://pay.example.com")).toBe(true);
  });

  it("takes a public name, and refuses the platform's own host", () => {
    expect(isRefusedHost(siteHost("https://shop.example.com/checkout")!, "https://pay.example.com")).toBe(false);
    expect(isRefusedHost(siteHost("https://pay.example.com/")!, "https://pay.example.com")).toBe(true);
  });
});
