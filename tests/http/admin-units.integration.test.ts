import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDefault } from "~/domain/merchants/units-admin.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

/** A merchant's units (branches, brands): each with its own branding, exactly one the default. */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
let manager: { id: number; username: string };

// The smallest PNG there is: 1×1, transparent.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const UNIT_KEYS = [
  "facebook_url",
  "header_color",
  "id",
  "instagram_url",
  "is_default",
  "logo_url",
  "name",
  "show_unit_title",
  "terms_ar",
  "terms_en",
  "title_ar",
  "title_en",
  "twitter_url",
  "website",
];

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  const id = await createUser(database.db, alpha.merchantId, {
    username: "alpha-units",
    email: "units@alpha.example",
    firstName: "Uma",
    lastName: "Units",
    permissions: ["manage_merchant"],
  });
  manager = { id, username: "alpha-units" };
  app = await loadApp({
    ...database.env,
    SEED_DEMO: "0",
    UPLOADS_DIR: `${database.env.SQLITE_PATH ?? `/tmp/kp-units-${Date.now()}`}.uploads`,
  });
});

afterAll(async () => {
  await database?.destroy();
});

const bearer = async (username: string) => ({
  Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`,
});
const unitsOf = (merchantId: number) =>
  database.db.selectFrom("units").selectAll().where("merchant_id", "=", merchantId).orderBy("id").execute();
const unitRow = (id: number) =>
  database.db.selectFrom("units").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const defaultsOf = async (merchantId: number) =>
  (await unitsOf(merchantId)).filter((unit) => unit.is_default === 1).map((unit) => unit.id);
const unitEntries = (merchantId: number, action: string) =>
  database.db
    .selectFrom("audit_log")
    .select(["actor_name", "description", "params", "object_type", "object_id"])
    .where("merchant_id", "=", merchantId)
    .where("action", "=", action)
    .orderBy("id")
    .execute();

/** Every field of a unit's page form, as a browser sends it. */
const fullForm = (changes: Record<string, string> = {}) => ({
  intent: "save",
  name: "Salmiya branch",
  title_en: "Alpha Flowers Salmiya",
  title_ar: "زهور ألفا السالمية",
  header_color: "#1B5E20",
  show_unit_title: "on",
  website: "https://salmiya.alpha.example",
  instagram_url: "https://instagram.com/alphasalmiya",
  twitter_url: "",
  facebook_url: "",
  terms_en: "Collect your flowers at the Salmiya shop.",
  terms_ar: "استلم زهورك من محل السالمية.",
  ...changes,
});

function upload(path: string, headers: Record<string, string>, bytes: Buffer, name = "logo.png") {
  const body = new FormData();
  body.set("file", new File([new Uint8Array(bytes)], name));
  return app.request(path, { method: "POST", headers, body });
}

describe("the units pages (/:lang/admin/units)", () => {
  let salmiyaId = 0;

  it("are only for users who may manage the merchant, and the panel's navigation lists them", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/admin/units", { cookie: staff })).status).toBe(403);
    expect(
      (
        await app.request("/en/admin/units", {
          cookie: staff,
          form: { intent: "add", name: "Taken", title_en: "Taken", title_ar: "مأخوذ", header_color: "#ffffff" },
        })
      ).status,
    ).toBe(403);
    const [defaultUnit] = await unitsOf(alpha.merchantId);
    expect((await app.request(`/en/admin/units/${defaultUnit.id}`, { cookie: staff })).status).toBe(403);
    expect((await app.request(`/en/admin/units/${defaultUnit.id}`, { cookie: staff, form: fullForm() })).status).toBe(
      403,
    );
    expect(await unitsOf(alpha.merchantId)).toHaveLength(1);

    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const page = await app.request("/en/admin/units", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/en/admin/units"');
    expect(html).toContain(`href="/en/admin/units/${defaultUnit.id}"`);
    expect(html).toContain("Default unit");
    // Units come after the profile in the panel's navigation.
    expect(html.indexOf('href="/en/admin/units"')).toBeGreaterThan(html.indexOf('href="/en/admin/profile"'));
  });

  it("adds a unit from a plain form post, not the default, and writes it in the audit log", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const added = await app.request("/en/admin/units", {
      cookie,
      form: {
        intent: "add",
        name: "Salmiya",
        title_en: "Alpha Salmiya",
        title_ar: "ألفا السالمية",
        header_color: "#0A3D62",
      },
    });
    expect(added.status).toBe(302);
    const units = await unitsOf(alpha.merchantId);
    expect(units).toHaveLength(2);
    salmiyaId = units[1].id;
    expect(added.headers.get("Location")).toBe(`/en/admin/units/${salmiyaId}`);
    expect(units[1]).toMatchObject({
      name: "Salmiya",
      title_en: "Alpha Salmiya",
      title_ar: "ألفا السالمية",
      header_color: "#0a3d62",
      show_unit_title: 1,
      is_default: 0,
      logo_url: null,
    });
    const [entry] = await unitEntries(alpha.merchantId, "unit_created");
    expect(entry).toMatchObject({ actor_name: "alpha-units", object_type: "unit", object_id: String(salmiyaId) });
    expect(entry.description).toBe("Added the unit Salmiya");

    const page = await (await app.request(`/en/admin/units/${salmiyaId}`, { cookie })).text();
    expect(page).toContain('value="Alpha Salmiya"');
    expect(page).toContain("Make default");
    const list = await (await app.request("/en/admin/units", { cookie })).text();
    expect(list).toContain("Salmiya");
    expect(list).toContain('aria-label="Make default: Salmiya"');
  });

  it("refuses bad values and a name already taken with errors in Arabic, keeping what was typed", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD, "ar");
    const before = await unitsOf(alpha.merchantId);
    const refused = await app.request("/ar/admin/units", {
      cookie,
      form: { intent: "add", name: "Kept as typed", title_en: "", title_ar: "ألفا", header_color: "red" },
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("هذا الحقل مطلوب");
    expect(html).toContain("أدخل اللون بعلامة #");
    expect(html).toContain('value="Kept as typed"');
    // Names are unique among the merchant's units, whatever their case.
    const taken = await app.request("/ar/admin/units", {
      cookie,
      form: { intent: "add", name: "salmiya", title_en: "Another", title_ar: "أخرى", header_color: "#ffffff" },
    });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("توجد وحدة أخرى بهذا الاسم");
    const renamed = await app.request(`/ar/admin/units/${salmiyaId}`, {
      cookie,
      form: fullForm({ name: "ALPHA STORE" }),
    });
    expect(renamed.status).toBe(400);
    expect(await renamed.text()).toContain("توجد وحدة أخرى بهذا الاسم");
    const badLink = await app.request(`/ar/admin/units/${salmiyaId}`, {
      cookie,
      form: fullForm({ website: "javascript:alert(1)" }),
    });
    expect(badLink.status).toBe(400);
    expect(await badLink.text()).toContain("أدخل عنوانًا يبدأ بـ https://");
    expect(await unitsOf(alpha.merchantId)).toEqual(before);
  });

  it("saves a unit's branding from its page, names what changed in the audit log, and writes nothing when nothing changed", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const saved = await app.request(`/en/admin/units/${salmiyaId}`, { cookie, form: fullForm() });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/en/admin/units/${salmiyaId}`);
    expect(await unitRow(salmiyaId)).toMatchObject({
      name: "Salmiya branch",
      title_en: "Alpha Flowers Salmiya",
      header_color: "#1b5e20",
      show_unit_title: 1,
      website: "https://salmiya.alpha.example",
      twitter_url: null,
      terms_ar: "استلم زهورك من محل السالمية.",
      is_default: 0,
    });
    const [entry] = await unitEntries(alpha.merchantId, "unit_changed");
    expect(entry.actor_name).toBe("alpha-units");
    expect(entry.description).toContain("Changed the unit Salmiya branch");
    expect(entry.description).toContain("Header colour");
    expect(entry.description).not.toContain("Facebook");
    expect(entry.description).not.toContain("salmiya.alpha.example");

    // An unticked box is not sent: the title is hidden. The same form again changes nothing.
    const withoutBox: Record<string, string> = fullForm();
    delete withoutBox.show_unit_title;
    await app.request(`/en/admin/units/${salmiyaId}`, { cookie, form: withoutBox });
    expect((await unitRow(salmiyaId)).show_unit_title).toBe(0);
    const count = (await unitEntries(alpha.merchantId, "unit_changed")).length;
    const again = await app.request(`/en/admin/units/${salmiyaId}`, { cookie, form: withoutBox });
    expect(again.status).toBe(302);
    expect((await unitEntries(alpha.merchantId, "unit_changed")).length).toBe(count);
  });

  it("makes a unit the default from the list, leaving exactly one, which GET unit/default answers", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const made = await app.request("/en/admin/units", { cookie, form: { intent: "default", id: String(salmiyaId) } });
    expect(made.status).toBe(302);
    expect(await defaultsOf(alpha.merchantId)).toEqual([salmiyaId]);
    const answer = await app.request("/api/v1/unit/default", { headers: await bearer(manager.username) });
    expect(await answer.json()).toMatchObject({
      id: salmiyaId,
      name: "Salmiya branch",
      title_en: "Alpha Flowers Salmiya",
      is_default: true,
    });
    expect((await unitEntries(alpha.merchantId, "unit_made_default")).at(-1)!.description).toBe(
      "Made Salmiya branch the default unit",
    );
    // And back, from the unit's own page.
    const [first] = await unitsOf(alpha.merchantId);
    expect((await app.request(`/en/admin/units/${first.id}`, { cookie, form: { intent: "default" } })).status).toBe(
      302,
    );
    expect(await defaultsOf(alpha.merchantId)).toEqual([first.id]);
  });

  it("uploads a unit's logo without JavaScript", async () => {
    const cookie = await app.signIn(manager.username, DEMO_PASSWORD);
    const done = await upload(`/en/admin/units/${salmiyaId}/logo`, { Cookie: cookie }, PNG);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/en/admin/units/${salmiyaId}`);
    const { logo_url } = await unitRow(salmiyaId);
    expect(logo_url).toMatch(new RegExp(`^/media/brand/${alpha.merchantId}/logo-[\\w-]{12}\\.png$`));
    expect((await unitEntries(alpha.merchantId, "unit_logo_changed")).at(-1)!.description).toBe(
      "Uploaded a new logo for the unit Salmiya branch",
    );
  });
});

describe("/api/v1/admin/units", () => {
  let riggaeId = 0;

  it("adds a unit (201, the unit as it is stored) and lists the merchant's units, the default first", async () => {
    const headers = await bearer(alpha.admin.username);
    const created = await app.request("/api/v1/admin/units", {
      headers,
      json: {
        name: "Riggae",
        title_en: "Alpha Riggae",
        title_ar: "ألفا الرقعي",
        show_unit_title: false,
        instagram_url: "https://instagram.com/alpharigg",
      },
    });
    expect(created.status).toBe(201);
    const unit = await created.json();
    expect(Object.keys(unit).sort()).toEqual(UNIT_KEYS);
    expect(unit).toMatchObject({
      name: "Riggae",
      title_en: "Alpha Riggae",
      header_color: "#ffffff",
      show_unit_title: false,
      website: null,
      logo_url: null,
      is_default: false,
    });
    riggaeId = unit.id;
    const listed = await (await app.request("/api/v1/admin/units", { headers })).json();
    expect(listed.map((entry: { name: string }) => entry.name)).toEqual(["Alpha Store", "Salmiya branch", "Riggae"]);
    expect(listed[0].is_default).toBe(true);
    expect((await unitEntries(alpha.merchantId, "unit_created")).at(-1)!.actor_name).toBe(alpha.admin.username);
  });

  it("refuses bad fields, read-only fields and a taken name DRF-style in the caller's language", async () => {
    const headers = { ...(await bearer(alpha.admin.username)), "Accept-Language": "ar" };
    const before = await unitsOf(alpha.merchantId);
    const refused = await app.request("/api/v1/admin/units", {
      headers,
      json: { name: "New", title_en: "", header_color: "blue", is_default: true },
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as Record<string, string[]>;
    expect(Object.keys(body).sort()).toEqual(["header_color", "is_default", "title_ar", "title_en"]);
    expect(body.title_en).toEqual(["هذا الحقل مطلوب"]);
    const taken = await app.request("/api/v1/admin/units", {
      headers,
      json: { name: "riggae", title_en: "X", title_ar: "س" },
    });
    expect(taken.status).toBe(400);
    expect(await taken.json()).toEqual({ name: ["توجد وحدة أخرى بهذا الاسم."] });
    const patched = await app.request(`/api/v1/admin/units/${riggaeId}`, {
      method: "PATCH",
      headers,
      json: { name: "Salmiya Branch", logo_url: "https://evil.example/x.png" },
    });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toEqual({ logo_url: ["لا يمكن تغيير هذا الحقل."] });
    expect(await unitsOf(alpha.merchantId)).toEqual(before);
  });

  it("changes only the fields sent, and only when they differ", async () => {
    const headers = await bearer(alpha.admin.username);
    const read = await app.request(`/api/v1/admin/units/${riggaeId}`, { headers });
    expect((await read.json()).title_ar).toBe("ألفا الرقعي");
    const count = (await unitEntries(alpha.merchantId, "unit_changed")).length;
    const patched = await app.request(`/api/v1/admin/units/${riggaeId}`, {
      method: "PATCH",
      headers,
      json: { header_color: "#FFC107", title_ar: "ألفا الرقعي" },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      id: riggaeId,
      header_color: "#ffc107",
      title_ar: "ألفا الرقعي",
      instagram_url: "https://instagram.com/alpharigg",
      show_unit_title: false,
    });
    const entries = await unitEntries(alpha.merchantId, "unit_changed");
    expect(entries).toHaveLength(count + 1);
    expect(entries.at(-1)!.description).toBe("Changed the unit Riggae: Header colour");
    await app.request(`/api/v1/admin/units/${riggaeId}`, {
      method: "PATCH",
      headers,
      json: { header_color: "#ffc107" },
    });
    expect(await unitEntries(alpha.merchantId, "unit_changed")).toHaveLength(count + 1);
  });

  it("makes a unit the default: exactly one, even when several are asked for at once", async () => {
    const headers = await bearer(alpha.admin.username);
    const made = await app.request(`/api/v1/admin/units/${riggaeId}/default`, { method: "POST", headers });
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ id: riggaeId, is_default: true });
    expect(await defaultsOf(alpha.merchantId)).toEqual([riggaeId]);
    expect((await (await app.request("/api/v1/unit/default", { headers })).json()).id).toBe(riggaeId);

    // Calls that race through the API; on Postgres also straight at the domain from a second pool of
    // connections (one SQLite file is written by one process at a time).
    const ids = (await unitsOf(alpha.merchantId)).map((unit) => unit.id);
    const actor = { id: alpha.admin.id, username: alpha.admin.username };
    const direct =
      database.engine === "postgres"
        ? ids.map((id) =>
            makeDefault(database.db, { merchantId: alpha.merchantId, actor, id }).then((outcome) =>
              outcome.ok ? 200 : 500,
            ),
          )
        : [];
    const answers = await Promise.all([
      ...ids.flatMap((id) =>
        [1, 2].map(() =>
          app
            .request(`/api/v1/admin/units/${id}/default`, { method: "POST", headers })
            .then((response) => response.status),
        ),
      ),
      ...direct,
    ]);
    expect(answers.every((status) => status === 200)).toBe(true);
    const defaults = await defaultsOf(alpha.merchantId);
    expect(defaults).toHaveLength(1);
    expect((await (await app.request("/api/v1/unit/default", { headers })).json()).id).toBe(defaults[0]);
  });

  it("takes a unit's logo as multipart, serves it, and refuses anything but an image", async () => {
    const headers = { ...(await bearer(alpha.admin.username)), "Accept-Language": "ar" };
    const stored = await upload(`/api/v1/admin/units/${riggaeId}/logo`, headers, PNG);
    expect(stored.status).toBe(200);
    const unit = await stored.json();
    expect(unit.id).toBe(riggaeId);
    expect(unit.logo_url).toMatch(new RegExp(`^/media/brand/${alpha.merchantId}/logo-[\\w-]{12}\\.png$`));
    expect((await unitRow(riggaeId)).logo_url).toBe(unit.logo_url);
    const served = await app.request(unit.logo_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");

    const text = await upload(
      `/api/v1/admin/units/${riggaeId}/logo`,
      headers,
      Buffer.from("not an image at all"),
      "logo.png",
    );
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ file: ["ارفع صورة PNG أو JPEG أو WebP."] });
    const svg = await upload(
      `/api/v1/admin/units/${riggaeId}/logo`,
      headers,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      "logo.svg",
    );
    expect(svg.status).toBe(400);
    // A PNG of a few bytes that says it is 60000×60000 pixels: a browser would try to decode 14 GB.
    const huge = Buffer.from(PNG);
    huge.writeUInt32BE(60000, 16);
    huge.writeUInt32BE(60000, 20);
    const measured = await upload(`/api/v1/admin/units/${riggaeId}/logo`, headers, huge, "logo.png");
    expect(measured.status).toBe(400);
    expect(await measured.json()).toEqual({
      file: ["هذه الصورة كبيرة جدًا: الحد الأقصى 8000 بكسل لكل ضلع و40 ميغابكسل إجمالًا."],
    });
    expect((await unitRow(riggaeId)).logo_url).toBe(unit.logo_url);
    expect((await unitEntries(alpha.merchantId, "unit_logo_changed")).at(-1)!.object_id).toBe(String(riggaeId));

    // The merchant's logo is its default unit's: this one's when it becomes the default, none when a unit without one does.
    const merchantLogo = async () =>
      (
        await database.db
          .selectFrom("merchants")
          .select("logo_url")
          .where("id", "=", alpha.merchantId)
          .executeTakeFirstOrThrow()
      ).logo_url;
    const before = (await unitsOf(alpha.merchantId)).find((row) => row.is_default === 1)!;
    await app.request(`/api/v1/admin/units/${riggaeId}/default`, { method: "POST", headers });
    expect(await merchantLogo()).toBe(unit.logo_url);
    const plain = await (
      await app.request("/api/v1/admin/units", {
        headers,
        json: { name: "Without a logo", title_en: "Alpha Plain", title_ar: "ألفا" },
      })
    ).json();
    await app.request(`/api/v1/admin/units/${plain.id}/default`, { method: "POST", headers });
    expect(await merchantLogo()).toBeNull();
    await app.request(`/api/v1/admin/units/${before.id}/default`, { method: "POST", headers });
    expect(await merchantLogo()).toBe(before.logo_url);
  });

  it("is refused to users without manage_merchant and to callers without a token", async () => {
    const staff = await bearer(alpha.staff.username);
    const [unit] = await unitsOf(alpha.merchantId);
    expect((await app.request("/api/v1/admin/units", { headers: staff })).status).toBe(403);
    expect(
      (
        await app.request("/api/v1/admin/units", {
          headers: staff,
          json: { name: "Staff", title_en: "Staff", title_ar: "موظف" },
        })
      ).status,
    ).toBe(403);
    expect((await app.request(`/api/v1/admin/units/${unit.id}`, { headers: staff })).status).toBe(403);
    expect(
      (
        await app.request(`/api/v1/admin/units/${unit.id}`, {
          method: "PATCH",
          headers: staff,
          json: { name: "Staff" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await app.request(`/api/v1/admin/units/${unit.id}/default`, { method: "POST", headers: staff })).status,
    ).toBe(403);
    expect((await upload(`/api/v1/admin/units/${unit.id}/logo`, staff, PNG)).status).toBe(403);
    expect((await app.request("/api/v1/admin/units")).status).toBe(401);
    expect((await unitRow(unit.id)).name).toBe("Alpha Store");
  });
});

describe("another merchant's units", () => {
  it("are not found, by page or API, and stay as they were", async () => {
    const alphaUnits = await unitsOf(alpha.merchantId);
    const target = alphaUnits.find((unit) => unit.is_default === 0)!;
    const headers = await bearer(beta.admin.username);
    expect((await app.request(`/api/v1/admin/units/${target.id}`, { headers })).status).toBe(404);
    expect(
      (
        await app.request(`/api/v1/admin/units/${target.id}`, {
          method: "PATCH",
          headers,
          json: { name: "Taken by Beta" },
        })
      ).status,
    ).toBe(404);
    expect((await app.request(`/api/v1/admin/units/${target.id}/default`, { method: "POST", headers })).status).toBe(
      404,
    );
    expect((await upload(`/api/v1/admin/units/${target.id}/logo`, headers, PNG)).status).toBe(404);
    expect(
      (await (await app.request("/api/v1/admin/units", { headers })).json()).map((unit: { name: string }) => unit.name),
    ).toEqual(["Beta Store"]);

    const cookie = await app.signIn(beta.admin.username, DEMO_PASSWORD);
    expect((await app.request(`/en/admin/units/${target.id}`, { cookie })).status).toBe(404);
    expect(
      (await app.request(`/en/admin/units/${target.id}`, { cookie, form: fullForm({ name: "Taken by Beta" }) })).status,
    ).toBe(404);
    expect((await app.request(`/en/admin/units/${target.id}`, { cookie, form: { intent: "default" } })).status).toBe(
      404,
    );
    expect(
      (await app.request("/en/admin/units", { cookie, form: { intent: "default", id: String(target.id) } })).status,
    ).toBe(404);
    expect((await upload(`/en/admin/units/${target.id}/logo`, { Cookie: cookie }, PNG)).status).toBe(404);
    expect(await (await app.request("/en/admin/units", { cookie })).text()).not.toContain(target.name);

    expect(await unitsOf(alpha.merchantId)).toEqual(alphaUnits);
    expect(await defaultsOf(beta.merchantId)).toHaveLength(1);
    expect(await unitEntries(beta.merchantId, "unit_changed")).toHaveLength(0);
    expect(await unitEntries(beta.merchantId, "unit_made_default")).toHaveLength(0);
  });
});
