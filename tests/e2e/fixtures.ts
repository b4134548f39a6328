import { test as base } from "@playwright/test";
import { BASE_URL } from "./support";

export * from "@playwright/test";

/** Playwright's test, with pages, requests and new contexts pointed at this worker's own server. */
export const test = base.extend({ baseURL: BASE_URL });
