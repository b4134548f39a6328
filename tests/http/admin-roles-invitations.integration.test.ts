import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { loadOperationsApproval } from "~/domain/identity/user-admin.server";

/** Roles as named groups of permissions, and users invited by e-mail who choose their own password. */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let admin: Record<string, string>;

const NEW_PASSWORD = "Qamar-Jahra-2026!";

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  admin = { Authorization: `Bearer ${(await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access}` };
});
afterAll(async () => database?.destroy());

const bearer = async (username: string, password = DEMO_PASSWORD) => ({
  Authorization: `Bearer ${(await app.apiToken(username, password)).access}`,
});
const lastMailTo = (address: string) =>
  database.db
    .selectFrom("outgoing_mail")
    .select(["subject", "text_body", "html_body"])
    .where("to_address", "=", address)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();

describe("roles and invitations", () => {
  let makerRole = 0;

  it("an invited maker chooses a password through the link and can do what the role allows, nothing more", async () => {
    const role = await app.request("/api/v1/admin/roles", {
      headers: admin,
      json: {
        name: "Maker",
        permissions: ["view_paymenttransaction", "add_paymenttransaction", "refund_paymenttransaction"],
      },
    });
    expect(role.status).toBe(201);
    makerRole = (await role.json()).id;

    const invited = await app.request("/api/v1/admin/users", {
      headers: admin,
      json: { username: "noura.maker", email: "Noura@Alpha.example", roles: ["Maker"] },
    });
    expect(invited.status).toBe(201);
    const user = await invited.json();
    expect(user).toMatchObject({
      username: "noura.maker",
      email: "noura@alpha.example",
      invitation_pending: true,
      roles: [{ id: makerRole, name: "Maker" }],
    });
    await expect(app.signIn("noura.maker", "")).rejects.toThrow();

    const mail = await lastMailTo("noura@alpha.example");
    expect(mail.subject).toContain("invited");
    const link = /http:\/\/localhost:3000(\/en\/reset-password\?token=[\w-]+)/.exec(mail.text_body)?.[1];
    expect(link).toBeTruthy();
    const page = await (await app.request(link!)).text();
    expect(page).toContain("Choose your password");

    const token = new URL(link!, "http://x").searchParams.get("token")!;
    const weak = await app.request("/en/reset-password", {
      form: { token, username: "noura.maker", new_password: "password", password_confirmation: "password" },
    });
    expect(weak.status).toBe(400);
    const set = await app.request("/en/reset-password", {
      form: { token, username: "noura.maker", new_password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(set.status).toBe(302);
    // The link opens the account once.
    expect(
      (
        await app.request("/en/reset-password", {
          form: { token, username: "noura.maker", new_password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        })
      ).status,
    ).toBe(400);

    const theirs = await bearer("noura.maker", NEW_PASSWORD);
    const created = await app.request("/api/v1/plugins/payment_request/transaction", {
      headers: theirs,
      json: { amount: "4.000", currency_code: "KWD", pg_codes: ["knet-sandbox"] },
    });
    expect(created.status).toBe(201);
    expect((await app.request("/api/v1/admin/users", { headers: theirs })).status).toBe(403);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("object_type", "=", "user")
      .where("object_id", "=", String(user.id))
      .where("action", "in", ["user_invited", "invitation_accepted", "password_reset"])
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(["user_invited", "invitation_accepted"]);
  });

  it("a change to a role changes what its holders may do at once; deleting it takes it away", async () => {
    const theirs = await bearer("noura.maker", NEW_PASSWORD);
    const list = () => app.request("/api/v1/plugins/payment_request/transaction", { headers: theirs });
    expect((await list()).status).toBe(200);
    const changed = await app.request(`/api/v1/admin/roles/${makerRole}`, {
      method: "PATCH",
      headers: admin,
      json: { permissions: ["add_paymenttransaction"] },
    });
    expect(changed.status).toBe(200);
    expect((await list()).status).toBe(403);
    await app.request(`/api/v1/admin/roles/${makerRole}`, {
      method: "PATCH",
      headers: admin,
      json: { permissions: ["view_paymenttransaction", "add_paymenttransaction"] },
    });
    expect((await list()).status).toBe(200);
    expect((await app.request(`/api/v1/admin/roles/${makerRole}`, { method: "DELETE", headers: admin })).status).toBe(
      204,
    );
    expect((await list()).status).toBe(403);
  });

  it("keeps usernames to the rule, and superuser rights to superusers", async () => {
    for (const username of ["~system", "api-key:abc", "with space", "NOURA.MAKER"]) {
      const refused = await app.request("/api/v1/admin/users", {
        headers: admin,
        json: { username, email: "x@alpha.example" },
      });
      expect(refused.status, username).toBe(400);
      expect(Object.keys(await refused.json())).toEqual(["username"]);
    }
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-manager",
      email: "m@alpha.example",
      firstName: "M",
      lastName: "M",
      permissions: ["manage_merchant"],
    });
    const manager = await bearer("alpha-manager");
    expect(
      (
        await app.request("/api/v1/admin/users", {
          headers: manager,
          json: { username: "boss", email: "boss@alpha.example", is_superuser: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request("/api/v1/admin/roles", {
          headers: manager,
          json: { name: "Admins", permissions: ["manage_merchant"] },
        })
      ).status,
    ).toBe(403);
    const arabic = await app.request("/api/v1/admin/roles", {
      headers: { ...manager, "Accept-Language": "ar" },
      json: { name: "", permissions: ["fly"] },
    });
    expect(await arabic.json()).toEqual({
      name: ["أدخل اسمًا لا يتجاوز 60 حرفًا."],
      permissions: ["اختر صلاحيات من القائمة."],
    });
  });

  it("another merchant's roles are out of reach", async () => {
    const theirRole = await app.request("/api/v1/admin/roles", {
      headers: admin,
      json: { name: "Cashier", permissions: ["view_paymenttransaction"] },
    });
    const id = (await theirRole.json()).id;
    const betaAdmin = await bearer(beta.admin.username);
    expect((await app.request(`/api/v1/admin/roles/${id}`, { headers: betaAdmin })).status).toBe(404);
    expect(
      (await app.request(`/api/v1/admin/roles/${id}`, { method: "PATCH", headers: betaAdmin, json: { name: "Mine" } }))
        .status,
    ).toBe(404);
    expect(await (await app.request("/api/v1/admin/roles", { headers: betaAdmin })).json()).toEqual([]);
    const betaInvite = await app.request("/api/v1/admin/users", {
      headers: betaAdmin,
      json: { username: "beta-cashier", email: "c@beta.example", roles: [id] },
    });
    expect(betaInvite.status).toBe(400);
    expect(Object.keys(await betaInvite.json())).toEqual(["roles"]);
  });

  it("the pages invite and give roles without JavaScript", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const role = await app.request("/en/admin/roles", {
      cookie,
      form: { intent: "create", name: "Checker", permissions: "approve_operations" },
    });
    expect(role.status).toBe(302);
    const checker = (
      await database.db
        .selectFrom("roles")
        .select("id")
        .where("name", "=", "Checker")
        .where("merchant_id", "=", alpha.merchantId)
        .executeTakeFirstOrThrow()
    ).id;
    const body = new URLSearchParams([
      ["intent", "invite"],
      ["username", "fahad"],
      ["email", "fahad@alpha.example"],
      ["roles", String(checker)],
    ]);
    const invited = await app.request("/ar/admin/users", {
      cookie,
      body,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(invited.status).toBe(302);
    const mail = await lastMailTo("fahad@alpha.example");
    expect(mail.subject).toContain("دعوة");
    const page = await (await app.request("/en/admin/users", { cookie })).text();
    expect(page).toContain("fahad");
    expect(page).toContain("Invited, no password yet");
    // Holding approve_operations through the role makes them a checker.
    expect((await loadOperationsApproval(database.db, alpha.merchantId)).checkers).toContain("fahad");
  });
});
