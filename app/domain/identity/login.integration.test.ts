import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { changePassword } from "./passwords.server";
import {
  attemptLogin,
  FAILURE_MAIL_AFTER,
  USERNAME_ADDRESS_LIMIT,
  USERNAME_LIMIT,
  verifyLoginCode,
} from "./login.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const secret = "test-secret-of-enough-length-0123456789";

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Login");
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

const login = (username: string, password: string, ip = "10.0.0.1", deviceToken: string | null = null) =>
  attemptLogin(database.db, { username, password, ip, deviceToken, lang: "en", secret });

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

  it("throttles a username for browsers it never used after 20 failures, whether or not it exists, from any address", async () => {
    for (let attempt = 0; attempt < USERNAME_LIMIT; attempt++) {
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

describe("guessing from many addresses", () => {
  it("never keeps out a browser that signed in as the user before, and tells the user once per window", async () => {
    const checker = await seedMerchant(database.db, "Lockout");
    const known = await login(checker.admin.username, DEMO_PASSWORD, "10.50.0.1");
    if (known.status !== "signed_in") throw new Error(known.status);
    // 40 addresses guess the password, two tries each.
    for (let address = 0; address < 40; address++) {
      for (let guess = 0; guess < 2; guess++)
        expect((await login(checker.admin.username, `Guess-${address}-${guess}`, `10.60.0.${address}`)).status).toMatch(
          /invalid|throttled/,
        );
    }
    // A browser that never signed in as them is held back; theirs is not, from any address.
    expect(await login(checker.admin.username, DEMO_PASSWORD, "10.70.0.1")).toEqual({ status: "throttled" });
    expect((await login(checker.admin.username, DEMO_PASSWORD, "10.70.0.2", known.deviceToken)).status).toBe(
      "signed_in",
    );
    // A token of another user, or one we did not sign, counts for nothing.
    const other = await login(shop.staff.username, DEMO_PASSWORD, "10.50.0.2");
    if (other.status !== "signed_in") throw new Error(other.status);
    expect(await login(checker.admin.username, DEMO_PASSWORD, "10.70.0.3", other.deviceToken)).toEqual({
      status: "throttled",
    });
    expect(
      await login(
        checker.admin.username,
        DEMO_PASSWORD,
        "10.70.0.3",
        `${known.deviceToken.slice(0, -1)}${known.deviceToken.endsWith("0") ? "1" : "0"}`,
      ),
    ).toEqual({ status: "throttled" });

    // One mail, in the language they last signed in with, however many failures followed.
    const mails = await database.db
      .selectFrom("outgoing_mail")
      .select(["subject", "text_body"])
      .where("to_address", "=", `${checker.admin.username}@lockout.example`)
      .execute();
    const warnings = mails.filter((mail) => mail.subject === "Failed sign-ins to your account");
    expect(warnings).toHaveLength(1);
    expect(warnings[0].text_body).toContain(`${FAILURE_MAIL_AFTER} failed attempts`);
  });

  it("locks out a device token that is used to guess, and then counts it as any other browser", async () => {
    const owner = await seedMerchant(database.db, "Stolen");
    const known = await login(owner.admin.username, DEMO_PASSWORD, "10.80.0.1");
    if (known.status !== "signed_in") throw new Error(known.status);
    for (let guess = 0; guess < 10; guess++)
      expect((await login(owner.admin.username, `Guess-${guess}`, `10.81.0.${guess}`, known.deviceToken)).status).toBe(
        "invalid",
      );
    // Its own ten are spent; as an unknown browser it still has the username's allowance.
    expect((await login(owner.admin.username, "Guess-x", "10.81.1.1", known.deviceToken)).status).toBe("invalid");
    expect((await login(owner.admin.username, DEMO_PASSWORD, "10.81.1.2")).status).toBe("signed_in");
  });

  it("stops trusting a browser's device token once the user's password changes", async () => {
    const owner = await seedMerchant(database.db, "Renewed");
    const known = await login(owner.admin.username, DEMO_PASSWORD, "10.85.0.1");
    if (known.status !== "signed_in") throw new Error(known.status);
    for (let address = 0; address < USERNAME_LIMIT; address++)
      await login(owner.admin.username, `Guess-${address}`, `10.86.0.${address}`);
    expect((await login(owner.admin.username, DEMO_PASSWORD, "10.85.0.2", known.deviceToken)).status).toBe("signed_in");
    const changed = await changePassword(database.db, {
      userId: owner.admin.id,
      currentPassword: DEMO_PASSWORD,
      newPassword: "Renewed@Pass-2026",
      repeatPassword: "Renewed@Pass-2026",
      lang: "en",
      ip: "10.85.0.2",
    });
    expect(changed).toEqual({ ok: true });
    // The token was signed for the old password: its browser now waits like any other.
    expect(await login(owner.admin.username, "Renewed@Pass-2026", "10.85.0.3", known.deviceToken)).toEqual({
      status: "throttled",
    });
  });

  it("limits one address's guesses at one username", async () => {
    const target = await seedMerchant(database.db, "PerPair");
    for (let guess = 0; guess < USERNAME_ADDRESS_LIMIT; guess++)
      await login(target.admin.username, `Guess-${guess}`, "10.90.0.1");
    expect(await login(target.admin.username, DEMO_PASSWORD, "10.90.0.1")).toEqual({ status: "throttled" });
    expect((await login(target.admin.username, DEMO_PASSWORD, "10.90.0.2")).status).toBe("signed_in");
  });
});

describe("one-time codes", () => {
  it("sends a 6-digit code by email that works once", async () => {
    expect((await login(shop.otp.username, DEMO_PASSWORD)).status).toBe("code_required");
    const code = await latestCode();
    const verify = () =>
      verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.1", lang: "en", secret });
    expect((await verify()).status).toBe("signed_in");
    expect((await verify()).status).toBe("no_challenge");
  });

  it("refuses a wrong code as a field error, and gives up after five", async () => {
    await login(shop.otp.username, DEMO_PASSWORD);
    const code = await latestCode();
    const wrong = code === "111111" ? "222222" : "111111";
    for (let attempt = 0; attempt < 4; attempt++) {
      expect(
        (
          await verifyLoginCode(database.db, {
            username: shop.otp.username,
            code: wrong,
            ip: "10.0.0.1",
            lang: "en",
            secret,
          })
        ).status,
      ).toBe("wrong_code");
    }
    expect(
      (
        await verifyLoginCode(database.db, {
          username: shop.otp.username,
          code: wrong,
          ip: "10.0.0.1",
          lang: "en",
          secret,
        })
      ).status,
    ).toBe("no_challenge");
    expect(
      (await verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.1", lang: "en", secret }))
        .status,
    ).toBe("no_challenge");
  });

  it("expires a code after ten minutes", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.2");
    const code = await latestCode();
    advanceClock(10 * 60_000 + 1000);
    expect(
      (await verifyLoginCode(database.db, { username: shop.otp.username, code, ip: "10.0.0.2", lang: "en", secret }))
        .status,
    ).toBe("no_challenge");
  });

  it("keeps only the newest code valid", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.3");
    const first = await latestCode();
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.3");
    const second = await latestCode();
    if (first !== second) {
      expect(
        (
          await verifyLoginCode(database.db, {
            username: shop.otp.username,
            code: first,
            ip: "10.0.0.3",
            lang: "en",
            secret,
          })
        ).status,
      ).toBe("wrong_code");
    }
    expect(
      (
        await verifyLoginCode(database.db, {
          username: shop.otp.username,
          code: second,
          ip: "10.0.0.3",
          lang: "en",
          secret,
        })
      ).status,
    ).toBe("signed_in");
  });

  it("never stores the code itself", async () => {
    await login(shop.otp.username, DEMO_PASSWORD, "10.0.0.4");
    const code = await latestCode();
    const rows = await database.db.selectFrom("login_challenges").select("code_hash").execute();
    expect(rows.every((row) => !row.code_hash.includes(code))).toBe(true);
  });
});
