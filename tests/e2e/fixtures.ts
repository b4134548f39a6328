import { test as base, expect, type BrowserContext } from "@playwright/test";
import { BASE_URL } from "./support";

export * from "@playwright/test";

/**
 * Playwright's test, with pages, requests and new contexts pointed at this worker's own server. A
 * script error in any page the test opens (through the `page` fixture or a context or page of its
 * own, a failed hydration among them: React then throws the server's page away and draws it again)
 * fails the test.
 */
const watched = new WeakSet<BrowserContext>();

/** Collects the script errors of a context's pages into `errors`, once per context. */
function watch(context: BrowserContext, errors: string[]) {
  if (watched.has(context)) return context;
  watched.add(context);
  context.on("weberror", (error) =>
    errors.push(`${error.page()?.url() ?? "?"}: ${error.error().message.split("\n")[0]}`),
  );
  return context;
}

export const test = base.extend<{ failOnPageErrors: void }, { pageErrors: string[] }>({
  baseURL: BASE_URL,
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  pageErrors: [async ({}, provide) => provide([]), { scope: "worker" }],
  browser: [
    async ({ browser, pageErrors }, provide) => {
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      browser.newContext = async (options) => watch(await newContext(options), pageErrors);
      browser.newPage = async (options) => {
        const page = await newPage(options);
        watch(page.context(), pageErrors);
        return page;
      };
      await provide(browser);
    },
    { scope: "worker" },
  ],
  context: async ({ context, pageErrors }, provide) => {
    await provide(watch(context, pageErrors));
  },
  failOnPageErrors: [
    async ({ pageErrors }, provide) => {
      pageErrors.length = 0;
      await provide();
      expect(pageErrors, "errors thrown in the pages").toEqual([]);
    },
    { auto: true },
  ],
});
