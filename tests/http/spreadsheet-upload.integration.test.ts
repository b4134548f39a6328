import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { unclosedTagsWorkbook } from "../support/stored-zip";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * A crafted workbook of a few kilobytes, uploaded to the food import, against the built server over
 * HTTP: it is read away from the requests' thread, so the health check keeps answering at once
 * while it is read, and it is refused in the uploader's language.
 */
let database: TestDatabase;
let server: TestHttpServer;
let token = "";

beforeAll(async () => {
  database = await createTestDatabase();
  const alpha = await seedMerchant(database.db, "Alpha");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: alpha.admin.username, password: DEMO_PASSWORD }),
  });
  token = ((await response.json()) as { access: string }).access;
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

describe("a workbook of unclosed tags", () => {
  it("is refused while /healthz keeps answering", async () => {
    // The first answer of a fresh server compiles its route; the next ten are how slow this machine is right now.
    const healthCheck = async () => {
      const started = performance.now();
      const health = await fetch(`${server.url}/healthz`);
      await health.arrayBuffer();
      expect(health.status).toBe(200);
      return performance.now() - started;
    };
    await healthCheck();
    const idle: number[] = [];
    for (let check = 0; check < 10; check++) idle.push(await healthCheck());
    const file = unclosedTagsWorkbook();
    expect(file.length).toBeLessThan(20_000);
    const body = new FormData();
    body.set("file", new Blob([new Uint8Array(file)]), "menu.xlsx");
    let settled = false;
    const upload = fetch(`${server.url}/api/v1/plugins/food_ordering/upload/product`, {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": "en" },
    }).finally(() => (settled = true));
    // The health check, asked again and again for as long as the upload is being read.
    const during: number[] = [];
    do during.push(await healthCheck());
    while (!settled);
    const answer = await upload;
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toMatch(/file|column/i);
    // Read on the requests' thread, the file held every request for more than 30 s. Read apart, the
    // health check answers as fast as when idle (within 100 ms of it on a quiet machine); the margin
    // here is for a loaded one (the test files run side by side on two cores).
    expect(
      Math.max(...during),
      `idle ${idle.map(Math.round).join(", ")}; during ${during.map(Math.round).join(", ")}`,
    ).toBeLessThan(Math.max(...idle) + 1_000);
  });
});
