import { test as base, expect } from "@playwright/test";
import { BASE_URL } from "./support";

export * from "@playwright/test";

/**
 * Playwright's test, with pages, requests and new contexts pointed at this worker's own server. A
 * script error in any page of the test's context (a failed hydration among them: React then
 * throws the server's page away and draws it again) fails the test.
 */
export const test = base.extend({
  baseURL: BASE_URL,
  context: async ({ context }, use) => {
    const errors: string[] = [];
    context.on("weberror", (error) => errors.push(`${error.page()?.url() ?? "?"}: ${error.error().message.split("\n")[0]}`));
    await use(context);
    expect(errors, "errors thrown in the pages").toEqual([]);
  },
});
