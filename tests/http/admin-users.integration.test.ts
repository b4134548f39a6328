import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  const id = await createUser(database.db, alpha.merchantId, {
    username: "alpha-manager",
    email: "manager@alpha.example",
    firstName: "Maha",
    lastName: "Manager",
    permissions: ["manage_merchant"],
  });
  manager = { id, username: "alpha-manager" };
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = (access: string) => ({ Authorization: `Bearer ${access}` });
const auditOf = (userId: number) =>
  database.db
    .selectFrom("audit_log")
    .select(["action", "actor_name", "description"])
    .where("object_type", "=", "user")
    .where("object_id", "=", String(userId))
    .where("action", "like", "user_%")
    .orderBy("id")
    .execute();

async function freshUser(username: string, merchantId = alpha.merchantId) {
  const id = await createUser(database.db, merchantId, {
    username,
    email: `${username}@alpha.example`,
    firstName: "Test",
    lastName: "User",
    permissions: ["view_paymenttransaction"],
  });
  return { id, username };
}

describe("deactivating a user", () => {
  it("from the page, without JavaScript: their session and API token stop at once; reactivated, they sign in again", async () => {
    const user = await freshUser("leaving-cashier");
    const theirCookie = await app.signIn(user.username, DEMO_PASSWORD);
    const theirToken = await app.apiToken(user.username, DEMO_PASSWORD);
    expect((await app.request("/en", { cookie: theirCookie })).status).toBe(200);

    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const list = await (await app.request("/en/admin/users", { cookie })).text();
    expect(list).toContain("leaving-cashier");
    const done = await app.request("/en/admin/users", { cookie, form: { change: `${user.id}:is_active:off` } });
    expect(done.status).toBe(302);

    expect((await app.request("/en", { cookie: theirCookie })).headers.get("Location")).toMatch(/\/en\/login/);
    expect((await app.request("/api/v1/user/details", { headers: bearer(theirToken.access) })).status).toBe(401);
    expect((await app.request("/api/v1/user/token/refresh/", { json: { refresh: theirToken.refresh } })).status).toBe(
      401,
    );
    await expect(app.signIn(user.username, DEMO_PASSWORD)).rejects.toThrow();
    expect(
      (await database.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).length,
    ).toBe(0);

    await app.request("/en/admin/users", { cookie, form: { change: `${user.id}:is_active:on` } });
    await app.signIn(user.username, DEMO_PASSWORD);
    expect((await auditOf(user.id)).map((entry) => [entry.action, entry.actor_name])).toEqual([
      ["user_deactivated", "alpha-manager"],
      ["user_reactivated", "alpha-manager"],
    ]);
    expect((await auditOf(user.id))[0].description).toBe("Deactivated leaving-cashier and ended their sessions");
  });

  it("through PATCH /api/v1/admin/users/{id}, with the same rules", async () => {
    const user = await freshUser("api-cashier");
    const theirToken = await app.apiToken(user.username, DEMO_PASSWORD);
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const patched = await app.request(`/api/v1/admin/users/${user.id}`, {
      method: "PATCH",
      headers,
      json: { is_active: false },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: user.id, username: "api-cashier", is_active: false });
    expect((await app.request("/api/v1/user/details", { headers: bearer(theirToken.access) })).status).toBe(401);

    const refused = await app.request(`/api/v1/admin/users/${user.id}`, {
      method: "PATCH",
      headers,
      json: { is_active: "no", is_superuser: true },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      is_active: ["Must be a valid boolean."],
      is_superuser: ["This field cannot be changed."],
    });

    const otp = await app.request(`/api/v1/admin/users/${user.id}`, {
      method: "PATCH",
      headers,
      json: { requires_otp: true },
    });
    expect(await otp.json()).toMatchObject({ requires_otp: true });
    const listed = (await (await app.request("/api/v1/admin/users", { headers })).json()) as { username: string }[];
    expect(listed.map((row) => row.username)).toContain("api-cashier");
    expect(listed.map((row) => row.username)).not.toContain(beta.admin.username);
  });

  it("refuses deactivating oneself, a superuser by a non-superuser, another merchant's user, and users without the permission", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const self = await app.request(`/api/v1/admin/users/${manager.id}`, {
      method: "PATCH",
      headers,
      json: { is_active: false },
    });
    expect(self.status).toBe(400);
    expect(await self.json()).toEqual({ is_active: ["You cannot deactivate yourself."] });
    const superuser = await app.request(`/api/v1/admin/users/${alpha.admin.id}`, {
      method: "PATCH",
      headers,
      json: { is_active: false },
    });
    expect(superuser.status).toBe(403);
    const otherMerchant = await app.request(`/api/v1/admin/users/${beta.staff.id}`, {
      method: "PATCH",
      headers,
      json: { is_active: false },
    });
    expect(otherMerchant.status).toBe(404);
    expect(
      (await app.request("/api/v1/admin/users/abc", { method: "PATCH", headers, json: { is_active: false } })).status,
    ).toBe(404);
    const staff = bearer((await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access);
    expect(
      (
        await app.request(`/api/v1/admin/users/${manager.id}`, {
          method: "PATCH",
          headers: staff,
          json: { is_active: false },
        })
      ).status,
    ).toBe(403);
    const staffCookie = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect(
      (await app.request("/en/admin/users", { cookie: staffCookie, form: { change: `${manager.id}:is_active:off` } }))
        .status,
    ).toBe(403);
    // The page refuses the same in words, in Arabic.
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const page = await app.request("/ar/admin/users", { cookie, form: { change: `${alpha.admin.id}:is_active:off` } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("لا يغيّر المستخدمَ الرئيسي إلا مستخدمٌ رئيسي.");
    const rows = await database.db
      .selectFrom("users")
      .select(["username", "is_active"])
      .where("id", "in", [manager.id, alpha.admin.id, beta.staff.id])
      .execute();
    expect(rows.every((row) => row.is_active === 1)).toBe(true);
  });
});

describe("operations approval", () => {
  const flag = async () =>
    (
      await database.db
        .selectFrom("merchants")
        .select("operations_approval")
        .where("id", "=", alpha.merchantId)
        .executeTakeFirstOrThrow()
    ).operations_approval;

  it("is turned on and off from the users page without JavaScript, names the checkers and is audited", async () => {
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-checker",
      email: "checker@alpha.example",
      firstName: "Khaled",
      lastName: "Checker",
      permissions: ["approve_operations"],
    });
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    expect(await flag()).toBe(0);
    const page = await (await app.request("/en/admin/users", { cookie })).text();
    expect(page).toContain(
      "Checkers (may approve operations): Alpha-admin, alpha-checker".replace("Alpha-admin", alpha.admin.username),
    );
    expect((await app.request("/en/admin/users", { cookie, form: { change: "approval:on" } })).status).toBe(302);
    expect(await flag()).toBe(1);
    await app.request("/en/admin/users", { cookie, form: { change: "approval:off" } });
    expect(await flag()).toBe(0);
    const entries = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "like", "operations_approval_%")
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { action: "operations_approval_on", actor_name: "alpha-manager" },
      { action: "operations_approval_off", actor_name: "alpha-manager" },
    ]);
  });

  it("is read and set through /api/v1/admin/merchant, and refuses a value that is not a boolean", async () => {
    const headers = bearer((await app.apiToken(manager.username, DEMO_PASSWORD)).access);
    const on = await app.request("/api/v1/admin/merchant", {
      method: "PATCH",
      headers,
      json: { operations_approval: true },
    });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ operations_approval: true });
    expect(await flag()).toBe(1);
    const refused = await app.request("/api/v1/admin/merchant", {
      method: "PATCH",
      headers,
      json: { operations_approval: "yes", subheader: "Not saved" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ operations_approval: ["Must be a valid boolean."] });
    expect(
      (
        await database.db
          .selectFrom("merchants")
          .select("subheader")
          .where("id", "=", alpha.merchantId)
          .executeTakeFirstOrThrow()
      ).subheader,
    ).toBeNull();
    await app.request("/api/v1/admin/merchant", { method: "PATCH", headers, json: { operations_approval: false } });
    expect(await flag()).toBe(0);
  });
});
