// Shared helpers for the end-to-end tests: locale texts, sign-in, reading the mailbox.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Browser, type Page } from "@playwright/test";
import { serverUrl, workerIndex } from "./servers";

export type Lang = "en" | "ar";

export const DEMO_PASSWORD = "Demo@2026!";
/** This worker's own server. */
export const BASE_URL = serverUrl(workerIndex);

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../locales");
const catalogs = new Map<Lang, Record<string, unknown>>();

function catalog(lang: Lang): Record<string, unknown> {
  let messages = catalogs.get(lang);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(path.join(localesDir, lang, "common.json"), "utf8")) as Record<
      string,
      unknown
    >;
    catalogs.set(lang, messages);
  }
  return messages;
}

/** The exact text of a translation key from locales/<lang>/common.json, with {{vars}} filled in. */
export function t(lang: Lang, key: string, vars: Record<string, string> = {}): string {
  let value: unknown = catalog(lang);
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== "string") throw new Error(`No text for "${key}" in locales/${lang}/common.json`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`No value for {{${name}}} in "${key}"`);
    return vars[name];
  });
}

/** Matches a path exactly, with an optional query string: urlPath("/en/login") matches /en/login?redirectTo=… */
export function urlPath(pathname: string): RegExp {
  const escaped = pathname.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${BASE_URL.replace(/[.]/g, "\\.")}${escaped}(\\?.*)?$`);
}

/**
 * With JavaScript on, waits until React has hydrated the page, so that timers and client-side
 * handlers are in place before the test acts. Without JavaScript there is nothing to wait for.
 */
export async function waitForHydration(page: Page) {
  const scriptsRun = await page.evaluate(() => "__reactRouterContext" in window);
  if (!scriptsRun) return;
  await page.waitForFunction(() => {
    const element = document.querySelector("main") ?? document.body;
    return Object.keys(element).some((key) => key.startsWith("__reactFiber"));
  });
}

/** Opens the login page and submits a username and password, without checking the outcome. */
export async function submitCredentials(page: Page, username: string, password = DEMO_PASSWORD, lang: Lang = "en") {
  await page.goto(`/${lang}/login`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: t(lang, "login.username"), exact: true }).fill(username);
  await page.getByRole("textbox", { name: t(lang, "login.password"), exact: true }).fill(password);
  await page.getByRole("button", { name: t(lang, "login.submit"), exact: true }).click();
}

/** Signs in a user without a one-time code and checks the dashboard home greets them. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD, lang: Lang = "en") {
  await submitCredentials(page, username, password, lang);
  await expect(page).toHaveURL(urlPath(`/${lang}`));
  await expect(page.getByRole("heading", { level: 1, name: t(lang, "home.title", { username }) })).toBeVisible();
  await waitForHydration(page);
}

/**
 * Signs in as admin in a context of its own, opens the newest email whose subject is
 * `subjectText` (and, if given, sent to `to`) in /en/mailbox, and returns its plain-text body.
 */
export async function readLatestMail(browser: Browser, subjectText: string, to?: string): Promise<string> {
  const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: true });
  try {
    const page = await context.newPage();
    await signIn(page, "admin");
    await page.goto("/en/mailbox");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "mailbox.title") })).toBeVisible();
    let rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: subjectText, exact: true }) });
    if (to) rows = rows.filter({ has: page.getByRole("cell", { name: to, exact: true }) });
    const link = rows.first().getByRole("link", { name: subjectText, exact: true });
    const href = await link.getAttribute("href");
    expect(href).toMatch(/^\/en\/mailbox\/\d+$/);
    await link.click();
    await expect(page).toHaveURL(urlPath(href!));
    await expect(page.getByRole("heading", { level: 1, name: subjectText })).toBeVisible();
    return await page.locator("pre").innerText();
  } finally {
    await context.close();
  }
}

/** Opens the account menu in the top bar (a <details> disclosure whose <summary> is the greeting). */
export async function openAccountMenu(page: Page, username: string, lang: Lang = "en") {
  const greeting = page.locator("summary").filter({ hasText: t(lang, "shell.greeting", { username }) });
  await greeting.click();
  await expect(page.locator("details.disclosure-menu", { has: greeting })).toHaveAttribute("open", "");
}

/**
 * Sets a date-time field: with JavaScript, through Mantine's picker (the day of `date` in Kuwait, then
 * its hour and minute); without, by typing the datetime-local value.
 */
export async function pickKuwaitDateTime(page: Page, label: string, date: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kuwait",
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  if (!(await page.evaluate(() => "__reactRouterContext" in window))) {
    const local = new Intl.DateTimeFormat("sv-SE", {
      timeZone: "Asia/Kuwait",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(date);
    await page.getByLabel(label, { exact: true }).fill(local.replace(" ", "T"));
    return;
  }
  await page.getByRole("button", { name: label, exact: true }).click();
  const dropdown = page.locator(".mantine-Popover-dropdown").filter({ has: page.getByRole("spinbutton") });
  await dropdown.getByRole("button", { name: `${parts.day} ${parts.month} ${parts.year}`, exact: true }).click();
  const hour = Number(parts.hour);
  const hours = dropdown.getByRole("spinbutton").nth(0);
  const minutes = dropdown.getByRole("spinbutton").nth(1);
  await hours.pressSequentially(String(hour % 12 === 0 ? 12 : hour % 12).padStart(2, "0"));
  await minutes.pressSequentially(parts.minute);
  await dropdown.locator("select").selectOption(hour < 12 ? "AM" : "PM");
  await dropdown.getByRole("button").last().click();
}

/** The whole amount back, from the dashboard in the given language. */
export async function refundInFull(page: Page, id: string, lang: Lang, amount: string) {
  await signIn(page, "admin", DEMO_PASSWORD, lang);
  await page.goto(`/${lang}/payment-request/transactions/${id}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: t(lang, "actions.refund"), exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("textbox", { name: t(lang, "operations.amount", { currency: "KWD" }) })).toHaveValue(
    amount,
  );
  await dialog.getByRole("button", { name: t(lang, "actions.refund"), exact: true }).click();
  await dialog.getByRole("textbox", { name: t(lang, "operations.reason") }).fill("Order not delivered");
  await dialog.getByRole("button", { name: t(lang, "operations.yes") }).click();
  await expect(dialog.getByText(t(lang, "operations.success.refund"))).toBeVisible();
  await dialog.getByRole("link", { name: t(lang, "operations.ok") }).click();
  await expect(page.getByText(t(lang, "states.refunded"), { exact: true }).first()).toBeVisible();
}
