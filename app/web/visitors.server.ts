import { createIsbotFromList, list } from "isbot";

/**
 * Link previewers (WhatsApp, Slack, Telegram, iMessage), mail scanners and scripts fetch a link the
 * moment it is shared or delivered. Automated browsers (HeadlessChrome) load a page the way a
 * person's browser does, so only the "headless" pattern is left out of isbot's list.
 */
const isAutomatedFetcher = createIsbotFromList(list.filter((pattern) => !/headless/i.test(pattern)));

/**
 * Whether a request for a customer page is a person looking at it, so that it may count as the link
 * being opened (docs/decisions/0036). A form sent (POST) is someone paying; a HEAD, or a GET with no
 * user agent or a known fetcher's, is not a person.
 */
export function isPersonVisit(request: Pick<Request, "method" | "headers">): boolean {
  if (request.method === "POST") return true;
  if (request.method !== "GET") return false;
  const agent = request.headers.get("user-agent")?.trim();
  return Boolean(agent) && !isAutomatedFetcher(agent!);
}
