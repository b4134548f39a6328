import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { attemptLogin, verifyLoginCode } from "./login.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const secret = "test-secret-of-enough-length-0123456789";

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Login");
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

const login = (username: string, password: string, ip = "10.0.0.1") =>
  attemptLogin(database.db, { username, password, ip, lang: "en", secret });

async function latestCode() {
  const mail = await database.db
    .selectFrom("outgoing_mail")
    .select("text_body")
    .where("to_address", "=", shop.otp.email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.text_body)![1];
}

describe("attemptLogin", () => {
  it("signs in with the right password and records it in the audit log", async () => {
    const outcome = await login(shop.admin.username, DEMO_PASSWORD);
    expect(outcome.status).toBe("signed_in");
    const entry = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name", "merchant_id"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: "sign_in", actor_name: shop.admin.username, merchant_id: shop.merchantId });
  });

  it("gives an unknown user and a wrong password the same answer", async () => {
    expect(await login("nobody-at-all", DEMO_PASSWORD)).toEqual({ status: "invalid" });
    expect(await login(shop.staff.username, "Wrong@2026!")).toEqual({ status: "invalid" });
  });

  it("throttles a username after 10 failures, whether or not it exists, from any address", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await login("ghost-user", "bad", `10.1.0.${attempt}`);
      await login(shop.admin.username.toUpperCase(), "bad", `10.2.0.${attempt}`);
    }
    expect(await login("ghost-user", "bad", "10.9.9.9")).toEqual({ status: "throttled" });
    // The username is matched exactly, so the upper-case failures did not sign anyone in but
    // they count for the lower-cased bucket of the real admin as well.
    expect(await login(shop.admin.username, DEMO_PASSWORD, "10.9.9.9")).toEqual({ status: "throttled" });
    advanceClock(16 * 60_000);
    expect((await login(shop.admin.username, DEMO_PASSWORD, "10.9.9.9")).status).toBe("signed_in");
  });

  it("throttles an address after 50 failures across usernames", async () => {
    for (let attempt = 0; attempt < 50; attempt++) await login(`someone-${attempt}`, "bad", "10.3.3.3");
    expect(await login(shop.staff.username, DEMO_PASSWORD, "10.3.3.3")).toEqual({ status: "throttled" });
    expect((await login(shop.staff.username, DEMO_PASSWORD, "10.3.3.4")).status).toBe("signed_in");
  });
});

describe("one-time codes", () => {
  it("sends a 6-digit code by email that works once", async () => {
    expect((await login(shop.otp.username, DEMO_PASSWORD)).status).toBe("code_required");
    const code = await latestCode();
    const verify = () => verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.1", secret });
    expect((await verify()).status).toBe("signed_in");
    expect((await verify()).status).toBe("no_challenge");
  });

  it("refuses a wrong code as a field error, and gives up after five", async () => {
    await login(shop.otp.username, DEMO_PASSWORD);
    const code = await latestCode();
    const wrong = code === "111111" ? "222222" : "111111";
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await verifyLoginCode(database.db, { username: shop.otp.username, code: wrong, ip: "10.0.0.1", secret })).status).toBe(
        "wrong_code",
      );
    }
    expect((await verifyLoginCode(database.db, { username: shop.otp.username, code: wrong, ip: "10.0.0.1", secret })).status).toBe(
      "no_challenge",
    );
    expect((await verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.1", secret })).status).toBe(
      "no_challenge",
    );
  });

  it("expires a code after ten minutes", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.2");
    const code = await latestCode();
    advanceClock(10 * 60_000 + 1000);
    expect((await verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.2", secret })).status).toBe(
      "no_challenge",
    );
  });

  it("keeps only the newest code valid", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.3");
    const first = await latestCode();
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.3");
    const second = await latestCode();
    if (first !== second) {
      expect((await verifyLoginCode(database.db, { username: shop.otp.username, code: first, ip: "10.0.0.3", secret })).status).toBe(
        "wrong_code",
      );
    }
    expect((await verifyLoginCode(database.db, { username: shop.otp.username, code: second, ip: "10.0.0.3", secret })).status).toBe(
      "signed_in",
    );
  });

  it("never stores the code itself", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.4");
    const code = await latestCode();
    const rows = await database.db.selectFrom("login_challenges").select("code_hash").execute();
    expect(rows.every((row) => !row.code_hash.includes(code))).toBe(true);
  });
});
