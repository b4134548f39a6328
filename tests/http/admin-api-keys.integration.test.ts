import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  adminHeaders = { Authorization: `Bearer ${(await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access}` };
});
afterAll(async () => database?.destroy());

const withKey = (key: string) => ({ Authorization: `Api-Key ${key}` });
const newKey = async (body: Record<string, unknown>, headers = adminHeaders) =>
  app.request("/api/v1/admin/api-keys", { headers, json: body });
const createRequest = (key: string, ip?: string) =>
  app.request("/api/v1/plugins/payment_request/transaction", {
    headers: withKey(key),
    json: { amount: "3.250", currency_code: "KWD", pg_codes: ["knet-sandbox"] },
    ip,
  });

describe("API keys", () => {
  it("are shown once, stored hashed, and act for their merchant within their scopes", async () => {
    const created = await newKey({
      name: "Shop server",
      scopes: ["payment_request:read", "payment_request:write"],
      allowed_ips: [],
      expires_at: null,
    });
    expect(created.status).toBe(201);
    const { id, key, prefix } = await created.json();
    expect(key).toMatch(/^kp_[\w-]{8}_[\w-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);

    const stored = await database.db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key.slice(prefix.length + 1));
    const listed = await (await app.request("/api/v1/admin/api-keys", { headers: adminHeaders })).text();
    expect(listed).toContain(prefix);
    expect(listed).not.toContain(key);
    expect(
      JSON.stringify(await database.db.selectFrom("audit_log").select(["description", "params"]).execute()),
    ).not.toContain(key);

    const made = await createRequest(key);
    expect(made.status).toBe(201);
    const transaction = await made.json();
    const row = await database.db
      .selectFrom("transactions")
      .select(["merchant_id"])
      .where("id", "=", transaction.id)
      .executeTakeFirstOrThrow();
    expect(row.merchant_id).toBe(alpha.merchantId);
    const list = await app.request("/api/v1/plugins/payment_request/transaction", { headers: withKey(key) });
    expect(list.status).toBe(200);
    const ids = ((await list.json()).results as { id: string }[]).map((entry) => entry.id);
    expect(ids).toContain(transaction.id);

    // Not in its scopes: refunds (the key's user holds none); another merchant's rows; the
    // administration; a person's endpoints.
    const keyUser = await database.db
      .selectFrom("api_keys")
      .innerJoin("user_permissions", "user_permissions.user_id", "api_keys.user_id")
      .select("user_permissions.permission")
      .where("api_keys.id", "=", id)
      .execute();
    expect(keyUser.map((row) => row.permission).sort()).toEqual([
      "add_paymenttransaction",
      "change_paymenttransaction",
      "delete_paymenttransaction",
      "search_paymenttransaction",
      "view_paymenttransaction",
      "view_paymenttransaction_statistics",
    ]);
    expect((await app.request("/api/v1/admin/api-keys", { headers: withKey(key) })).status).toBe(403);
    expect((await app.request("/api/v1/user/details", { headers: withKey(key) })).status).toBe(403);
    const betaRequest = await app.request("/api/v1/plugins/payment_request/transaction", {
      headers: { Authorization: `Bearer ${(await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access}` },
      json: { amount: "1.000", currency_code: "KWD", pg_codes: ["knet-sandbox"] },
    });
    const betaId = (await betaRequest.json()).id;
    expect(
      (await app.request(`/api/v1/plugins/payment_request/transaction/details/${betaId}`, { headers: withKey(key) }))
        .status,
    ).toBe(404);

    const details = await (await app.request(`/api/v1/admin/api-keys/${id}`, { headers: adminHeaders })).json();
    expect(details).toMatchObject({ id, name: "Shop server", prefix, last_used_ip: "127.0.0.1", is_active: true });
    expect(details.last_used_at).toBeTruthy();
    // The key cannot sign in as a person.
    const username = (
      await database.db
        .selectFrom("api_keys")
        .innerJoin("users", "users.id", "api_keys.user_id")
        .select("users.username")
        .where("api_keys.id", "=", id)
        .executeTakeFirstOrThrow()
    ).username;
    await expect(app.signIn(username, key)).rejects.toThrow();
  });

  it("a revoked key is refused at once", async () => {
    const { id, key } = await (await newKey({ name: "Old POS", scopes: ["payment_request"] })).json();
    expect((await createRequest(key)).status).toBe(201);
    expect(
      (await app.request(`/api/v1/admin/api-keys/${id}`, { method: "DELETE", headers: adminHeaders })).status,
    ).toBe(204);
    const refused = await createRequest(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ detail: "This API key is not valid, was revoked or has expired." });
    expect(
      (await app.request(`/api/v1/admin/api-keys/${id}/rotate`, { method: "POST", headers: adminHeaders, json: {} }))
        .status,
    ).toBe(400);
  });

  it("after a rotation the old key works for its grace period only", async () => {
    const { id, key: oldKey } = await (await newKey({ name: "Rotating", scopes: ["*:read"] })).json();
    const rotated = await app.request(`/api/v1/admin/api-keys/${id}/rotate`, {
      method: "POST",
      headers: adminHeaders,
      json: { grace_seconds: 60 },
    });
    expect(rotated.status).toBe(200);
    const { key: newer } = await rotated.json();
    expect(newer).not.toBe(oldKey);
    const read = (key: string) => app.request("/api/v1/plugins/payment_request/transaction", { headers: withKey(key) });
    expect((await read(oldKey)).status).toBe(200);
    expect((await read(newer)).status).toBe(200);
    await app.request("/__test/clock", { json: { ms: 61_000 } });
    expect((await read(oldKey)).status).toBe(401);
    expect((await read(newer)).status).toBe(200);
    // Read-only: it cannot create.
    expect((await createRequest(newer)).status).toBe(403);
  });

  it("keeps to its allowed addresses and its expiry", async () => {
    const { key } = await (
      await newKey({ name: "Office", scopes: ["payment_request"], allowed_ips: ["203.0.113.0/24", "2001:db8::1"] })
    ).json();
    expect((await createRequest(key, "203.0.113.9")).status).toBe(201);
    expect((await createRequest(key, "2001:db8::1")).status).toBe(201);
    const elsewhere = await createRequest(key, "198.51.100.4");
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toEqual({ detail: "This API key may not be used from this address." });

    const soon = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const { key: expiring } = await (
      await newKey({ name: "Short", scopes: ["payment_request"], expires_at: soon })
    ).json();
    expect((await createRequest(expiring)).status).toBe(201);
    await app.request("/__test/clock", { json: { ms: 4 * 24 * 3600_000 } });
    expect((await createRequest(expiring)).status).toBe(401);
  });

  it("refuses bad input in the caller's language, and people without manage_merchant", async () => {
    // The clock moved on in the tests above: a fresh token.
    adminHeaders = { Authorization: `Bearer ${(await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access}` };
    const bad = await app.request("/api/v1/admin/api-keys", {
      headers: { ...adminHeaders, "Accept-Language": "ar" },
      json: {
        name: "",
        scopes: ["payments:everything"],
        allowed_ips: ["not-an-ip"],
        expires_at: "2001-01-01T00:00:00Z",
        owner: 1,
      },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(await bad.json()).sort()).toEqual(["owner"]);
    const bad2 = await app.request("/api/v1/admin/api-keys", {
      headers: { ...adminHeaders, "Accept-Language": "ar" },
      json: {
        name: "",
        scopes: ["payments:everything"],
        allowed_ips: ["not-an-ip"],
        expires_at: "2001-01-01T00:00:00Z",
      },
    });
    const errors = await bad2.json();
    expect(Object.keys(errors).sort()).toEqual(["allowed_ips", "expires_at", "name", "scopes"]);
    expect(errors.name[0]).toBe("أدخل اسمًا للمفتاح.");

    await createUser(database.db, alpha.merchantId, {
      username: "alpha-clerk",
      email: "clerk@alpha.example",
      firstName: "C",
      lastName: "L",
      permissions: ["view_paymenttransaction"],
    });
    const clerk = { Authorization: `Bearer ${(await app.apiToken("alpha-clerk", DEMO_PASSWORD)).access}` };
    expect((await newKey({ name: "x", scopes: ["payment_request"] }, clerk)).status).toBe(403);
    const betaAdmin = { Authorization: `Bearer ${(await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access}` };
    const alphaKey = (
      await database.db
        .selectFrom("api_keys")
        .select("id")
        .where("merchant_id", "=", alpha.merchantId)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await app.request(`/api/v1/admin/api-keys/${alphaKey}`, { headers: betaAdmin })).status).toBe(404);
    expect(
      (await app.request(`/api/v1/admin/api-keys/${alphaKey}`, { method: "DELETE", headers: betaAdmin })).status,
    ).toBe(404);
    expect(
      (await app.request(`/api/v1/admin/api-keys/${alphaKey}/rotate`, { method: "POST", headers: betaAdmin, json: {} }))
        .status,
    ).toBe(404);
    expect(await (await app.request("/api/v1/admin/api-keys", { headers: betaAdmin })).json()).toEqual([]);
  });

  it("the page creates a key without JavaScript and shows it once", async () => {
    const cookie = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const page = await app.request("/en/admin/api-keys", { cookie });
    expect(page.status).toBe(200);
    const body = new URLSearchParams([
      ["intent", "create"],
      ["name", "Warehouse"],
      ["scopes", "payment_request:read"],
      ["allowed_ips", "10.0.0.0/8"],
      ["expires_at", ""],
    ]);
    const created = await app.request("/en/admin/api-keys", {
      cookie,
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      method: "POST",
    });
    expect(created.status).toBe(201);
    const html = await created.text();
    const key = /kp_[\w-]{8}_[\w-]{43}/.exec(html)?.[0];
    expect(key).toBeTruthy();
    expect(html).toContain("it is shown only this once");
    const again = await (await app.request("/en/admin/api-keys", { cookie })).text();
    expect(again).toContain("Warehouse");
    expect(again).not.toContain(key!);
  });

  it("a manager who is not a superuser gives a key, a role or a user no more than they hold", async () => {
    await createUser(database.db, alpha.merchantId, {
      username: "alpha-lead",
      email: "lead@alpha.example",
      firstName: "L",
      lastName: "L",
      permissions: ["manage_merchant", "view_paymenttransaction"],
    });
    const lead = { Authorization: `Bearer ${(await app.apiToken("alpha-lead", DEMO_PASSWORD)).access}` };
    const wide = await newKey({ name: "Everything", scopes: ["*"] }, lead);
    expect(wide.status).toBe(403);
    expect(Object.keys(await wide.json())).toEqual(["scopes"]);
    expect((await newKey({ name: "Reader", scopes: ["payment_request:read"] }, lead)).status).toBe(403);
    const refunder = await app.request("/api/v1/admin/roles", {
      headers: lead,
      json: { name: "Refunder", permissions: ["refund_paymenttransaction", "approve_operations"] },
    });
    expect(refunder.status).toBe(403);
    const viewer = await app.request("/api/v1/admin/roles", {
      headers: lead,
      json: { name: "Viewer", permissions: ["view_paymenttransaction"] },
    });
    expect(viewer.status).toBe(201);
    // A role made by a superuser with more in it is neither given nor taken away by the lead.
    const broad = await app.request("/api/v1/admin/roles", {
      headers: adminHeaders,
      json: { name: "Approver", permissions: ["approve_operations"] },
    });
    const broadId = (await broad.json()).id;
    const leadId = (
      await database.db.selectFrom("users").select("id").where("username", "=", "alpha-lead").executeTakeFirstOrThrow()
    ).id;
    expect(
      (
        await app.request(`/api/v1/admin/users/${leadId}`, {
          method: "PATCH",
          headers: lead,
          json: { roles: ["Viewer"] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request(`/api/v1/admin/users/${alpha.staff.id}`, {
          method: "PATCH",
          headers: lead,
          json: { roles: [broadId] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request("/api/v1/admin/users", {
          headers: lead,
          json: { username: "new-approver", email: "na@alpha.example", roles: ["Approver"] },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await app.request(`/api/v1/admin/users/${alpha.staff.id}`, {
          method: "PATCH",
          headers: lead,
          json: { roles: ["Viewer"] },
        })
      ).status,
    ).toBe(200);
  });
});
