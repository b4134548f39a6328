import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { iterateAuditEntries } from "~/domain/audit/audit-viewer.server";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };
let managerCookie: string;
let managerHeaders: Record<string, string>;

type Entry = {
  actor?: { id: number; username: string } | string;
  action: string;
  params?: Record<string, string> | null;
  description?: string;
  ip?: string | null;
  at: string;
};

/** An entry as the platform stores it; a string actor is stored as it is (an older entry's name). */
async function addEntry(merchantId: number, entry: Entry) {
  const actor = entry.actor ?? "~system";
  await database.db
    .insertInto("audit_log")
    .values({
      merchant_id: merchantId,
      actor_user_id: typeof actor === "string" ? null : actor.id,
      actor_name: typeof actor === "string" ? actor : actor.username,
      action: entry.action,
      params: entry.params === null ? null : JSON.stringify(entry.params ?? {}),
      description: entry.description ?? entry.action,
      object_type: null,
      object_id: null,
      ip: entry.ip ?? null,
      created_at: entry.at,
    })
    .execute();
}

const bearer = (access: string) => ({ Authorization: `Bearer ${access}` });
const BULK = 120;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  const id = await createUser(database.db, alpha.merchantId, {
    username: "alpha-auditor",
    email: "auditor@alpha.example",
    firstName: "Amal",
    lastName: "Auditor",
    permissions: ["manage_merchant"],
  });
  manager = { id, username: "alpha-auditor" };
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });

  // Kuwait is UTC+3: 20:30Z is 23:30 on the 14th there, 21:30Z already 00:30 on the 15th.
  await addEntry(alpha.merchantId, {
    actor: manager,
    action: "user_reactivated",
    params: { username: "returning-clerk" },
    ip: "192.0.2.1",
    at: "2025-01-14T20:30:00.000Z",
  });
  await addEntry(alpha.merchantId, {
    actor: manager,
    action: "user_deactivated",
    params: { username: "leaving-clerk" },
    ip: "203.0.113.9",
    at: "2025-01-14T21:30:00.000Z",
  });
  await addEntry(alpha.merchantId, {
    actor: alpha.admin,
    action: "operations_approval_on",
    ip: "192.0.2.3",
    at: "2025-01-15T20:59:00.000Z",
  });
  await addEntry(alpha.merchantId, {
    actor: alpha.admin,
    action: "operations_approval_off",
    ip: "192.0.2.4",
    at: "2025-01-15T21:00:00.000Z",
  });
  // What a spreadsheet would run: a name and a text that start with @, = and +, an address with -.
  await addEntry(alpha.merchantId, {
    actor: "@attacker",
    action: "legacy_note",
    params: null,
    description: '=HYPERLINK("http://evil.example","open")',
    ip: "-1+2",
    at: "2025-02-01T09:00:00.000Z",
  });
  await addEntry(alpha.merchantId, {
    actor: manager,
    action: "legacy_note",
    params: null,
    description: '+SUM(A1:A2), then a "quote"',
    at: "2025-02-01T09:05:00.000Z",
  });
  for (let i = 0; i < BULK; i++) {
    await addEntry(alpha.merchantId, {
      actor: alpha.staff,
      action: "order_notifications_on",
      at: new Date(Date.UTC(2024, 5, 1, 8, 0, Math.floor(i / 3))).toISOString(),
    });
  }
  // Another merchant's entries, on the same days and by the same kinds of action.
  await addEntry(beta.merchantId, {
    actor: beta.admin,
    action: "user_deactivated",
    params: { username: "beta-secret-user" },
    ip: "198.51.100.66",
    at: "2025-01-15T10:00:00.000Z",
  });
  await addEntry(beta.merchantId, {
    actor: beta.staff,
    action: "order_notifications_on",
    ip: "198.51.100.66",
    at: "2024-06-01T08:00:30.000Z",
  });

  managerCookie = await app.signIn(manager.username, DEMO_PASSWORD);
  managerHeaders = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
  // A sign-in at the other merchant, today, like the manager's own.
  await app.signIn(beta.admin.username, DEMO_PASSWORD);
});

afterAll(async () => {
  await database?.destroy();
});

const page = async (search: string, lang = "en", cookie = managerCookie) => {
  const response = await app.request(`/${lang}/admin/audit${search}`, { cookie });
  expect(response.status).toBe(200);
  return response.text();
};

type ApiPage = {
  count: number;
  next: number | null;
  previous: number | null;
  results: { id: number; created: string; actor: string; action: string; text: string; ip: string | null }[];
};
const api = async (search: string, headers: Record<string, string> = managerHeaders) =>
  app.request(`/api/v1/admin/audit-log${search}`, { headers });
const apiPage = async (search: string, headers?: Record<string, string>) => {
  const response = await api(search, headers);
  expect(response.status).toBe(200);
  return (await response.json()) as ApiPage;
};

describe("the audit page", () => {
  it("lists the merchant's entries in the reader's language, newest first, and never another merchant's", async () => {
    const html = await page("");
    expect(html).toContain("Audit log");
    expect(html).toContain("Deactivated leaving-clerk and ended their sessions");
    expect(html).toContain("203.0.113.9");
    expect(html).toContain("alpha-auditor signed in");
    expect(html.indexOf("alpha-auditor signed in")).toBeLessThan(html.indexOf("Deactivated leaving-clerk"));
    expect(html).not.toContain("beta-secret-user");
    expect(html).not.toContain("198.51.100.66");
    expect(html).not.toContain(`${beta.admin.username} signed in`);
    // The filters are a GET form, so they work without JavaScript.
    expect(html).toMatch(/<form[^>]*method="get"/);
    expect(html).toContain('name="created_after"');
  });

  it("filters by action, by user and by Kuwait days, and links the export to the same filters", async () => {
    const byAction = await page("?action=user_deactivated");
    expect(byAction).toContain("Deactivated leaving-clerk");
    expect(byAction).not.toContain("Reactivated returning-clerk");
    expect(byAction).not.toContain("beta-secret-user");
    expect(byAction).toContain('href="/en/admin/audit/export.csv?action=user_deactivated"');

    // The action filter's choices name every action: an entry is told by its address.
    const byUser = await page(`?user=${alpha.admin.id}`);
    expect(byUser).toContain("192.0.2.3");
    expect(byUser).toContain("192.0.2.4");
    expect(byUser).not.toContain("leaving-clerk");

    const oneDay = await page("?created_after=2025-01-15&created_before=2025-01-15");
    expect(oneDay).toContain("203.0.113.9");
    expect(oneDay).toContain("192.0.2.3");
    expect(oneDay).not.toContain("192.0.2.1");
    expect(oneDay).not.toContain("192.0.2.4");
    expect(oneDay).toContain("Entries 1–2 of 2");
  });

  it("says why a filter is refused and does not apply it: another merchant's user is not a choice", async () => {
    const html = await page(`?user=${beta.admin.id}&created_after=2025-02-30`);
    expect(html).toContain("Select a valid choice. That user is not one of this merchant&#x27;s users.");
    expect(html).toContain("Enter a valid date as YYYY-MM-DD.");
    expect(html).toContain("Deactivated leaving-clerk");
    expect(html).not.toContain("beta-secret-user");
    expect(html).toContain('href="/en/admin/audit/export.csv"');
  });

  it("pages by 50 with links that keep the filters", async () => {
    const first = await page("?action=order_notifications_on");
    expect(first).toContain(`Entries 1–50 of ${BULK}`);
    expect(first).toContain('href="?action=order_notifications_on&amp;page=2"');
    const last = await page("?action=order_notifications_on&page=3");
    expect(last).toContain(`Entries 101–${BULK} of ${BULK}`);
    expect(last.match(/Turned order notifications on/g)?.length).toBeGreaterThanOrEqual(BULK - 100);
  });

  it("is in Arabic, right to left, at /ar", async () => {
    const html = await page("?action=user_deactivated", "ar");
    expect(html).toMatch(/<html[^>]*dir="rtl"/);
    expect(html).toContain("سجل التدقيق");
    expect(html).toContain("أوقف leaving-clerk وأنهى جلساته");
    expect(html).toContain("كل المستخدمين");
  });
});

describe("GET /api/v1/admin/audit-log", () => {
  it("answers the merchant's entries, filtered, in pages of 50", async () => {
    const all = await apiPage("");
    const stored = await database.db
      .selectFrom("audit_log")
      .select("id")
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    expect(all.count).toBe(stored.length);
    expect(all.results).toHaveLength(50);
    expect(all.previous).toBeNull();
    expect(all.next).toBe(2);

    const deactivated = await apiPage("?action=user_deactivated");
    expect(deactivated).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: expect.any(Number),
          created: "2025-01-14T21:30:00.000Z",
          actor: "alpha-auditor",
          action: "user_deactivated",
          text: "Deactivated leaving-clerk and ended their sessions",
          ip: "203.0.113.9",
        },
      ],
    });

    const byUserAndDay = await apiPage(`?user=${alpha.admin.id}&created_after=2025-01-16&created_before=2025-01-16`);
    expect(byUserAndDay.results.map((entry) => entry.action)).toEqual(["operations_approval_off"]);

    const third = await apiPage("?action=order_notifications_on&page=3");
    expect(third).toMatchObject({ count: BULK, next: null, previous: 2 });
    expect(third.results).toHaveLength(BULK - 100);
    // A page past the end answers the last page.
    expect((await apiPage("?action=order_notifications_on&page=9")).results.map((entry) => entry.id)).toEqual(
      third.results.map((entry) => entry.id),
    );
  });

  it("never answers another merchant's entries, on any page", async () => {
    const ids = new Set(
      (
        await database.db.selectFrom("audit_log").select("id").where("merchant_id", "=", alpha.merchantId).execute()
      ).map((row) => row.id),
    );
    for (let number: number | null = 1; number !== null;) {
      const answer = await apiPage(`?page=${number}`);
      for (const entry of answer.results) expect(ids.has(entry.id)).toBe(true);
      expect(JSON.stringify(answer)).not.toContain("198.51.100.66");
      number = answer.next;
    }
    const betaDay = await apiPage("?action=user_deactivated&created_after=2025-01-15&created_before=2025-01-15");
    expect(betaDay.results.map((entry) => entry.text)).toEqual(["Deactivated leaving-clerk and ended their sessions"]);
  });

  it("refuses bad values field by field, DRF style, in the caller's language", async () => {
    const refused = await api(
      `?user=${beta.staff.id}&action=DROP%20TABLE&created_after=2025-13-01&created_before=15-01-2025&page=0`,
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      user: ["Select a valid choice. That user is not one of this merchant's users."],
      action: ["Enter an action code such as sign_in."],
      created_after: ["Enter a valid date as YYYY-MM-DD."],
      created_before: ["Enter a valid date as YYYY-MM-DD."],
      page: ["Enter a page number of 1 or more."],
    });
    const reversed = await app.request(
      "/api/v1/admin/audit-log?created_after=2025-01-16&created_before=2025-01-15&user=abc",
      { headers: { ...managerHeaders, "Accept-Language": "ar" } },
    );
    expect(reversed.status).toBe(400);
    expect(await reversed.json()).toEqual({
      user: ["اختر قيمة صحيحة. هذا المستخدم ليس من مستخدمي هذا التاجر."],
      created_before: ["لا يمكن أن يسبق تاريخُ «إلى» تاريخَ «من»."],
    });
  });

  it("writes each entry in the Accept-Language", async () => {
    const answer = await (await api("?action=user_deactivated", { ...managerHeaders, "Accept-Language": "ar" })).json();
    expect(answer.results[0].text).toBe("أوقف leaving-clerk وأنهى جلساته");
  });
});

describe("the CSV export", () => {
  const csv = async (search: string, lang = "en") => {
    const response = await app.request(`/${lang}/admin/audit/export.csv${search}`, { cookie: managerCookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    return new Uint8Array(await response.arrayBuffer());
  };
  const text = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

  it("starts with a BOM, has the five columns, and keeps spreadsheet formulas from running", async () => {
    const bytes = await csv("?action=legacy_note");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = text(bytes).slice(1).split("\r\n");
    expect(lines[0]).toBe("Time,User,Action,Entry,IP address");
    expect(lines.slice(1)).toEqual([
      `2025-02-01 12:05:00,alpha-auditor,legacy_note,"'+SUM(A1:A2), then a ""quote""",`,
      `2025-02-01 12:00:00,'@attacker,legacy_note,"'=HYPERLINK(""http://evil.example"",""open"")",'-1+2`,
      "",
    ]);
  });

  it("holds every matching entry of the merchant and none of another's", async () => {
    const all = text(await csv(""));
    const stored = await database.db
      .selectFrom("audit_log")
      .select("id")
      .where("merchant_id", "=", alpha.merchantId)
      .execute();
    expect(all.slice(1).split("\r\n").filter(Boolean)).toHaveLength(stored.length + 1);
    expect(all).not.toContain("beta-secret-user");
    expect(all).not.toContain("198.51.100.66");
    const oneDay = text(await csv("?created_after=2025-01-15&created_before=2025-01-15"));
    expect(oneDay.slice(1).split("\r\n").filter(Boolean)).toEqual([
      "Time,User,Action,Entry,IP address",
      `2025-01-15 23:59:00,${alpha.admin.username},Turned operations approval on,"Turned operations approval on: refunds, captures and voids by makers wait for a checker",192.0.2.3`,
      "2025-01-15 00:30:00,alpha-auditor,Deactivated a user,Deactivated leaving-clerk and ended their sessions,203.0.113.9",
    ]);
    expect(
      text(await csv(`?user=${alpha.staff.id}`))
        .split("\r\n")
        .filter(Boolean),
    ).toHaveLength(BULK + 1);
  });

  it("is written in Arabic at /ar", async () => {
    const arabic = text(await csv("?action=user_deactivated", "ar"));
    expect(arabic.split("\r\n")[0]).toBe("\uFEFFالوقت,المستخدم,الإجراء,التفاصيل,عنوان IP");
    expect(arabic).toContain("أوقف leaving-clerk وأنهى جلساته");
  });

  it("reads the log in batches that neither repeat nor skip entries written at the same moment", async () => {
    const paged = [1, 2, 3].map((number) => apiPage(`?action=order_notifications_on&page=${number}`));
    const expected = (await Promise.all(paged)).flatMap((answer) => answer.results.map((entry) => entry.id));
    const read: number[] = [];
    for await (const batch of iterateAuditEntries(
      database.db,
      alpha.merchantId,
      { action: "order_notifications_on" },
      7,
    ))
      read.push(...batch.map((entry) => entry.id));
    expect(read).toEqual(expected);
    expect(new Set(read).size).toBe(BULK);
  });

  it("refuses filters it cannot apply rather than export more than was asked for", async () => {
    const response = await app.request(`/en/admin/audit/export.csv?user=${beta.admin.id}`, { cookie: managerCookie });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That user is not one of this merchant's users.");
  });
});

describe("who may read the audit log", () => {
  it("is refused (403) to a user without manage_merchant: page, export and API", async () => {
    const cookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/audit", { cookie })).status).toBe(403);
    expect((await app.request("/en/admin/audit/export.csv", { cookie })).status).toBe(403);
    const headers = bearer((await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access);
    expect((await api("", headers)).status).toBe(403);
    expect((await app.request("/en/admin/audit")).headers.get("Location")).toMatch(/^\/en\/login\?redirectTo=/);
    expect((await api("", {})).status).toBe(401);
  });

  it("is open to a superuser, who holds every permission, for their own merchant only", async () => {
    const headers = bearer((await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access);
    const answer = await apiPage("", headers);
    const stored = await database.db
      .selectFrom("audit_log")
      .select("id")
      .where("merchant_id", "=", beta.merchantId)
      .execute();
    expect(answer.count).toBe(stored.length);
    expect(JSON.stringify(answer)).toContain("beta-secret-user");
    expect(JSON.stringify(answer)).not.toContain("leaving-clerk");
  });
});
