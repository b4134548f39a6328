import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { changePassword, requestPasswordReset, resetPassword } from "./passwords.server";
import { verifyPassword } from "./password-hashing.server";
import { openSession, resumeSession } from "./sessions.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Pw");
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

async function passwordWorks(userId: number, password: string) {
  const user = await database.db
    .selectFrom("users")
    .select("password_hash")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return verifyPassword(user.password_hash, password);
}

async function requestLink(username: string) {
  await requestPasswordReset(database.db, { username, baseUrl: "https://pay.example", lang: "en", ip: null });
  const mail = await database.db
    .selectFrom("outgoing_mail")
    .select(["to_address", "text_body"])
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return { mail, token: /token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] ?? "" };
}

const session = (userId: number) =>
  openSession(database.db, { userId, merchantId: shop.merchantId, kind: "web", ip: null, userAgent: null });

describe("password reset", () => {
  it("mails a link only to an existing user, and says nothing either way", async () => {
    const before = await database.db.selectFrom("outgoing_mail").select("id").execute();
    await expect(
      requestPasswordReset(database.db, { username: "nobody", baseUrl: "https://pay.example", lang: "en", ip: null }),
    ).resolves.toBeUndefined();
    expect((await database.db.selectFrom("outgoing_mail").select("id").execute()).length).toBe(before.length);
    const { mail, token } = await requestLink(shop.staff.username);
    expect(mail.to_address).toBe(`${shop.staff.username}@pw.example`);
    expect(mail.text_body).toContain(`https://pay.example/en/reset-password?token=${token}`);
    expect(token.length).toBeGreaterThanOrEqual(43);
  });

  it("sets the new password once, ends the user's sessions and refuses a second use", async () => {
    const { token } = await requestLink(shop.staff.username);
    const open = await session(shop.staff.id);
    const input = {
      token,
      username: shop.staff.username,
      newPassword: "Fresh#Start42",
      passwordConfirmation: "Fresh#Start42",
      ip: null,
    };
    expect(await resetPassword(database.db, input)).toEqual({ ok: true });
    expect(await passwordWorks(shop.staff.id, "Fresh#Start42")).toBe(true);
    expect(await resumeSession(database.db, open.token)).toBeUndefined();
    expect(
      await resetPassword(database.db, {
        ...input,
        newPassword: "Other#Start42",
        passwordConfirmation: "Other#Start42",
      }),
    ).toEqual({
      ok: false,
      errors: { non_field_errors: ["reset.invalid_link"] },
    });
  });

  it("refuses another user's username, a weak password and an expired link", async () => {
    const { token } = await requestLink(shop.otp.username);
    const base = { token, username: shop.otp.username, ip: null };
    expect(
      await resetPassword(database.db, {
        ...base,
        username: shop.admin.username,
        newPassword: "Fresh#Start42",
        passwordConfirmation: "Fresh#Start42",
      }),
    ).toEqual({
      ok: false,
      errors: { username: ["reset.wrong_username"] },
    });
    const weak = await resetPassword(database.db, {
      ...base,
      newPassword: "12345678",
      passwordConfirmation: "12345679",
    });
    expect(weak).toEqual({
      ok: false,
      errors: {
        new_password: expect.arrayContaining([
          "password.too_common",
          "password.entirely_numeric",
          "password.needs_upper",
        ]),
        password_confirmation: ["password.mismatch"],
      },
    });
    advanceClock(61 * 60_000);
    expect(
      await resetPassword(database.db, {
        ...base,
        newPassword: "Fresh#Start42",
        passwordConfirmation: "Fresh#Start42",
      }),
    ).toEqual({
      ok: false,
      errors: { non_field_errors: ["reset.invalid_link"] },
    });
    expect(await passwordWorks(shop.otp.id, DEMO_PASSWORD)).toBe(true);
  });
});

describe("password change", () => {
  const latestMail = () =>
    database.db
      .selectFrom("outgoing_mail")
      .select(["id", "to_address", "subject", "text_body"])
      .orderBy("id", "desc")
      .executeTakeFirst();

  it("refuses a password similar to the username", async () => {
    const outcome = await changePassword(database.db, {
      userId: shop.admin.id,
      currentPassword: DEMO_PASSWORD,
      newPassword: `${shop.admin.username}1!X`,
      repeatPassword: `${shop.admin.username}1!X`,
      lang: "en",
      ip: null,
    });
    expect(outcome).toEqual({ ok: false, errors: { new_password: ["password.too_similar"] } });
  });

  it("refuses a wrong current password and changes nothing", async () => {
    const open = await session(shop.staff.id);
    const mailBefore = await latestMail();
    const hash = () =>
      database.db.selectFrom("users").select("password_hash").where("id", "=", shop.staff.id).executeTakeFirstOrThrow();
    const hashBefore = await hash();
    const outcome = await changePassword(database.db, {
      userId: shop.staff.id,
      currentPassword: "Not#The1Password",
      newPassword: "Gulf#Harbour88",
      repeatPassword: "Gulf#Harbour88",
      lang: "en",
      ip: null,
    });
    expect(outcome).toEqual({ ok: false, errors: { old_password: ["password.wrong_current"] } });
    expect(await hash()).toEqual(hashBefore);
    expect(await resumeSession(database.db, open.token)).toBeDefined();
    expect((await latestMail())?.id).toBe(mailBefore?.id);
  });

  it("stops guessing the current password after ten wrong tries, as sign-in does", async () => {
    const attempt = (currentPassword: string) =>
      changePassword(database.db, {
        userId: shop.otp.id,
        currentPassword,
        newPassword: "Gulf#Harbour88",
        repeatPassword: "Gulf#Harbour88",
        lang: "en",
        ip: null,
      });
    for (let i = 0; i < 10; i++)
      expect(await attempt(`Wrong#Guess${i}`)).toEqual({
        ok: false,
        errors: { old_password: ["password.wrong_current"] },
      });
    expect(await attempt(DEMO_PASSWORD)).toEqual({ ok: false, errors: { old_password: ["login.throttled"] } });
    expect(await passwordWorks(shop.otp.id, DEMO_PASSWORD)).toBe(true);
    advanceClock(16 * 60_000);
    expect(await attempt(DEMO_PASSWORD)).toEqual({ ok: true });
  });

  it("ends every session but the one kept and tells the user by email, in their language", async () => {
    const kept = await session(shop.admin.id);
    const other = await session(shop.admin.id);
    const outcome = await changePassword(database.db, {
      userId: shop.admin.id,
      currentPassword: DEMO_PASSWORD,
      newPassword: "Gulf#Harbour88",
      repeatPassword: "Gulf#Harbour88",
      keepSessionId: kept.session.id,
      lang: "ar",
      ip: null,
    });
    expect(outcome).toEqual({ ok: true });
    expect(await resumeSession(database.db, other.token)).toBeUndefined();
    expect(await resumeSession(database.db, kept.token)).toBeDefined();
    expect(await passwordWorks(shop.admin.id, "Gulf#Harbour88")).toBe(true);
    const mail = await latestMail();
    expect(mail).toMatchObject({ to_address: `${shop.admin.username}@pw.example`, subject: "تم تغيير كلمة المرور" });
    expect(mail?.text_body).toContain(shop.admin.username);
  });
});
