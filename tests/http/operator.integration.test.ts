import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

/** The platform's operator creates merchants; each new merchant's superuser is invited and sees only their own merchant. */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
const PASSWORD = "Salmiya-Breeze-2026!";

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  await database.db.updateTable("users").set({ is_operator: 1 }).where("id", "=", alpha.admin.id).execute();
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

async function acceptInvitation(email: string, username: string) {
  const mail = await database.db
    .selectFrom("outgoing_mail")
    .select(["text_body"])
    .where("to_address", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const token = /reset-password\?token=([\w-]+)/.exec(mail.text_body)![1];
  const done = await app.request("/en/reset-password", {
    form: { token, username, new_password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(done.status).toBe(302);
}

describe("the platform's operator", () => {
  it("is the only one who sees the operator page", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/operator", { cookie: staff })).status).toBe(404);
    const operator = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const page = await app.request("/en/operator", { cookie: operator });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Merchants on the platform");
  });

  it("creates a merchant whose invited superuser sees only it", async () => {
    const operator = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const body = new URLSearchParams([
      ["name", "Al Noor Pharmacy"],
      ["title_ar", "صيدلية النور"],
      ["admin_username", "noor.owner"],
      ["admin_email", "owner@alnoor.example"],
      ["lang", "ar"],
      ["sections", "payment_request"],
    ]);
    const created = await app.request("/en/operator", {
      cookie: operator,
      body,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(created.status).toBe(302);
    const merchant = await database.db
      .selectFrom("merchants")
      .select(["id", "title_ar", "logo_url"])
      .where("name", "=", "Al Noor Pharmacy")
      .executeTakeFirstOrThrow();
    expect(merchant).toMatchObject({ title_ar: "صيدلية النور", logo_url: null });
    await acceptInvitation("owner@alnoor.example", "noor.owner");

    const headers = { Authorization: `Bearer ${(await app.apiToken("noor.owner", PASSWORD)).access}` };
    const users = (await (await app.request("/api/v1/admin/users", { headers })).json()) as {
      username: string;
      is_superuser: boolean;
    }[];
    expect(users).toEqual([expect.objectContaining({ username: "noor.owner", is_superuser: true })]);
    const list = await (await app.request("/api/v1/plugins/payment_request/transaction", { headers })).json();
    expect(list.count).toBe(0);
    expect((await app.request("/en/operator", { cookie: await app.signIn("noor.owner", PASSWORD) })).status).toBe(404);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["merchant_id", "actor_name", "description"])
      .where("action", "=", "merchant_created")
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ merchant_id: merchant.id, actor_name: alpha.admin.username });

    const again = await app.request("/en/operator", {
      cookie: operator,
      body,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(again.status).toBe(400);
  });

  it("npm run merchant:create does the same from the server's shell", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(
      "node",
      [
        "scripts/merchant-create.js",
        "--name",
        "Gulf Bakery",
        "--admin-email",
        "baker@gulf.example",
        "--sections",
        "payment_request,ticket",
      ],
      {
        env: { ...process.env, ...database.env, NODE_ENV: "production" },
        timeout: 60_000,
      },
    );
    expect(stdout).toContain("baker");
    const merchant = await database.db
      .selectFrom("merchants")
      .select("id")
      .where("name", "=", "Gulf Bakery")
      .executeTakeFirstOrThrow();
    const sections = await database.db
      .selectFrom("merchant_features")
      .select("section")
      .where("merchant_id", "=", merchant.id)
      .where("feature", "=", "")
      .execute();
    expect(sections.map((row) => row.section).sort()).toEqual(["payment_request", "ticket"]);
    await acceptInvitation("baker@gulf.example", "baker");
    const headers = { Authorization: `Bearer ${(await app.apiToken("baker", PASSWORD)).access}` };
    expect(
      (await (await app.request("/api/v1/admin/users", { headers })).json()).map(
        (user: { username: string }) => user.username,
      ),
    ).toEqual(["baker"]);
  }, 90_000);
});
