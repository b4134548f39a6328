import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { nowIso } from "~/lib/clock.server";
import { runReadyJobs } from "~/lib/jobs.server";

/** The reconciliation report's page: superusers only, in both languages, resolving with a note, "Compare now". */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;

async function difference(merchantId: number, reference: string) {
  const seen = nowIso();
  const row = await database.db
    .insertInto("reconciliation_differences")
    .values({
      merchant_id: merchantId,
      gateway_code: "mpgs-sandbox",
      kind: "unknown_refund",
      reference,
      transaction_id: null,
      attempt_id: null,
      operation_id: null,
      platform_amount: 0,
      gateway_amount: 2000,
      currency_code: "KWD",
      first_seen_at: seen,
      last_seen_at: seen,
      resolved_at: null,
      resolved_by: null,
      note: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Recon");
  other = await seedMerchant(database.db, "Else");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

describe("the reconciliation page", () => {
  it("shows a superuser the open differences, counted in the menu, in English and Arabic", async () => {
    const id = await difference(shop.merchantId, "T-RECON-1");
    await difference(other.merchantId, "T-ELSEWHERE");
    const admin = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const english = await (await app.request("/en/reconciliation", { cookie: admin })).text();
    for (const text of [
      "Reconciliation",
      "Refund not recorded",
      "T-RECON-1",
      "2.000",
      "Mark resolved",
      "Compare now",
      "Open differences: 1",
    ])
      expect(english).toContain(text);
    expect(english).not.toContain("T-ELSEWHERE");
    expect(english).toMatch(/href="\/en\/reconciliation"[^>]*>[\s\S]*?1<\/span>/);
    const arabic = await (await app.request("/ar/reconciliation", { cookie: admin })).text();
    expect(arabic).toContain('dir="rtl"');
    for (const text of ["مطابقة الحسابات", "استرداد غير مسجل", "تم الحل"]) expect(arabic).toContain(text);

    // Without a note nothing is resolved, and the page says why under the field.
    const refused = await app.request("/en/reconciliation", {
      cookie: admin,
      form: { intent: "resolve", id: String(id), note: " " },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Say what was done about it.");
    // Another merchant's difference cannot be resolved from here.
    const foreign = await database.db
      .selectFrom("reconciliation_differences")
      .select("id")
      .where("reference", "=", "T-ELSEWHERE")
      .executeTakeFirstOrThrow();
    await app.request("/en/reconciliation", {
      cookie: admin,
      form: { intent: "resolve", id: String(foreign.id), note: "mine now" },
    });
    expect(
      (
        await database.db
          .selectFrom("reconciliation_differences")
          .select("resolved_at")
          .where("id", "=", foreign.id)
          .executeTakeFirstOrThrow()
      ).resolved_at,
    ).toBeNull();

    const resolved = await app.request("/en/reconciliation", {
      cookie: admin,
      form: { intent: "resolve", id: String(id), note: "Refunded at the bank's counter" },
    });
    expect(resolved.status).toBe(302);
    const after = await (await app.request("/en/reconciliation", { cookie: admin })).text();
    expect(after).toContain("No open differences");
    const history = await (await app.request("/en/reconciliation?status=resolved", { cookie: admin })).text();
    for (const text of [
      "T-RECON-1",
      "Refunded at the bank&#x27;s counter",
      `Marked resolved by ${shop.admin.username}`,
    ])
      expect(history).toContain(text);
  });

  it("queues a comparison with Compare now, which the worker runs", async () => {
    const admin = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const response = await app.request("/en/reconciliation", { cookie: admin, form: { intent: "compare" } });
    expect(response.status).toBe(302);
    expect(
      (
        await database.db
          .selectFrom("jobs")
          .select("type")
          .where("type", "=", "compare_books")
          .where("status", "=", "queued")
          .execute()
      ).length,
    ).toBe(1);
    await runReadyJobs(database.db);
    const runs = await database.db.selectFrom("reconciliation_runs").select(["finished_at"]).execute();
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.finished_at !== null)).toBe(true);
    const page = await (await app.request("/en/reconciliation", { cookie: admin })).text();
    expect(page).toContain("Last compared");
  });

  it("is closed to everyone but superusers", async () => {
    const staff = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/reconciliation", { cookie: staff })).status).toBe(403);
    expect((await app.request("/en/reconciliation", { cookie: staff, form: { intent: "compare" } })).status).toBe(403);
    const home = await (await app.request("/en", { cookie: staff })).text();
    expect(home).not.toContain("/en/reconciliation");
  });
});
