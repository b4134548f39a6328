import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Anyone who knows a username guesses its password from many addresses, through a proxy that
// names each in X-Forwarded-For (one entry: the client, whichever way TRUST_PROXY counts hops).
// The user's own browser must still get in; unknown browsers are held back per username.

let database: TestDatabase;
let server: ServerProcess;
let checker: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  checker = await seedMerchant(database.db, "Checker");
  server = await startServerProcess({ ...database.env, TRUST_PROXY: "1" });
}, 90_000);

afterAll(async () => {
  if (server?.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
  }
  await database?.destroy();
});

function cookiesOf(response: Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const at = pair.indexOf("=");
    jar[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return jar;
}

/** The sign-in form, posted from `address` with the browser's cookies. */
function post(form: Record<string, string>, address: string, cookie?: string) {
  return fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: {
      Origin: server.url,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": address,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}
const signIn = (username: string, password: string, address: string, cookie?: string) =>
  post({ intent: "login", username, password }, address, cookie);

async function latestCodeFor(email: string) {
  const mail = await database.db
    .selectFrom("outgoing_mail")
    .select("text_body")
    .where("to_address", "=", email)
    .where("subject", "=", "Your sign-in code")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.text_body)![1];
}

/** 40 addresses, two wrong passwords each. */
async function guessFromFortyAddresses(username: string, network: number) {
  const answers = new Set<number>();
  for (let address = 1; address <= 40; address++) {
    for (let guess = 0; guess < 2; guess++)
      answers.add((await signIn(username, `Wrong-${address}-${guess}!`, `198.18.${network}.${address}`)).status);
  }
  return answers;
}

// About 250 sign-in attempts, each with its argon2 check: generous on a loaded machine.
describe("guessing a user's password from many addresses", { timeout: 120_000 }, () => {
  it("cannot stop the user signing in from their known browser; an unknown browser is held back; the user is told once", async () => {
    const first = await signIn(checker.admin.username, DEMO_PASSWORD, "203.0.113.10");
    expect(first.status).toBe(302);
    const device = cookiesOf(first).kp_device;

    expect(await guessFromFortyAddresses(checker.admin.username, 1)).toEqual(new Set([400, 429]));

    const unknownBrowser = await signIn(checker.admin.username, DEMO_PASSWORD, "203.0.113.20");
    expect(unknownBrowser.status).toBe(429);
    // The known browser, from yet another address (a phone on the move), gets in.
    const known = await signIn(checker.admin.username, DEMO_PASSWORD, "203.0.113.30", `kp_device=${device}`);
    expect(known.status).toBe(302);
    expect(cookiesOf(known).kp_session).toBeTruthy();
    const attributes = first.headers.getSetCookie().find((header) => header.startsWith("kp_device="));
    expect(attributes).toMatch(/HttpOnly/);
    expect(attributes).toMatch(/SameSite=Lax/);

    const warnings = await database.db
      .selectFrom("outgoing_mail")
      .select("text_body")
      .where("to_address", "=", `${checker.admin.username}@checker.example`)
      .where("subject", "=", "Failed sign-ins to your account")
      .execute();
    expect(warnings).toHaveLength(1);
  });

  it("lets a user who signs in with a one-time code through from their known browser", async () => {
    const username = checker.otp.username;
    const withPassword = await signIn(username, DEMO_PASSWORD, "203.0.113.40");
    expect(withPassword.status).toBe(200);
    const first = await post(
      { intent: "verify_code", username, code: await latestCodeFor(checker.otp.email) },
      "203.0.113.40",
    );
    expect(first.status).toBe(302);
    const device = cookiesOf(first).kp_device;

    await guessFromFortyAddresses(username, 2);
    expect((await signIn(username, DEMO_PASSWORD, "203.0.113.41")).status).toBe(429);

    const again = await signIn(username, DEMO_PASSWORD, "203.0.113.42", `kp_device=${device}`);
    expect(again.status).toBe(200);
    const signedIn = await post(
      { intent: "verify_code", username, code: await latestCodeFor(checker.otp.email) },
      "203.0.113.42",
      `kp_device=${device}`,
    );
    expect(signedIn.status).toBe(302);
    expect(cookiesOf(signedIn).kp_session).toBeTruthy();
  });

  it("still holds back one address that guesses across many usernames", async () => {
    for (let attempt = 0; attempt < 50; attempt++)
      expect((await signIn(`nobody-${attempt}`, "Wrong-1!", "192.0.2.77")).status).toBe(400);
    expect((await signIn(checker.staff.username, DEMO_PASSWORD, "192.0.2.77")).status).toBe(429);
    expect((await signIn(checker.staff.username, DEMO_PASSWORD, "192.0.2.78")).status).toBe(302);
  });
});
