import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { seedMerchant } from "../../tests/support/fixtures";
import { openReportDownload, requestExport } from "~/domain/reporting/exports.server";
import { resetEnvCache } from "./env.server";
import { runReadyJobs } from "./jobs.server";
import { createS3Storage } from "./storage-s3.server";
import { localStorage, storage, type FileStorage } from "./storage.server";

/** An S3-compatible server on loopback, as a deployment's bucket would be reached. */
let server: S3rver;
let endpoint: string;
let bucketDir: string;
let reportsDir: string;
let uploadsDir: string;
let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

const S3_ENV = [
  "S3_BUCKET",
  "S3_ENDPOINT",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_PREFIX",
  "REPORTS_DIR",
  "UPLOADS_DIR",
];

beforeAll(async () => {
  bucketDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-s3-"));
  reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-s3-reports-"));
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-s3-uploads-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: bucketDir,
    configureBuckets: [{ name: "pay-files", configs: [] }],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  Object.assign(process.env, {
    S3_BUCKET: "pay-files",
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PREFIX: "kw/production",
    REPORTS_DIR: reportsDir,
    UPLOADS_DIR: uploadsDir,
  });
  resetEnvCache();
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Bucket");
});

afterAll(async () => {
  await database?.destroy();
  await server?.close();
  for (const name of S3_ENV) delete process.env[name];
  resetEnvCache();
  for (const folder of [bucketDir, reportsDir, uploadsDir]) fs.rmSync(folder, { recursive: true, force: true });
});

/** Every file the bucket holds, by its key (s3rver keeps an object as a folder of that name's path). */
function objectsInBucket() {
  const root = path.join(bucketDir, "pay-files");
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith("._S3rver_object"))
    .map((name) =>
      name
        .replace(/\._S3rver_object$/, "")
        .split(path.sep)
        .join("/"),
    )
    .sort();
}

describe("the bucket as file storage", () => {
  const bucket = () => storage();

  it("is chosen by S3_BUCKET, and keeps files under S3_PREFIX, never in the local folders", async () => {
    expect(bucket()).not.toBe(localStorage);
    await bucket().put("brand/7/logo.png", new Uint8Array([137, 80, 78, 71]));
    expect(objectsInBucket()).toContain("kw/production/brand/7/logo.png");
    expect(fs.readdirSync(uploadsDir)).toEqual([]);
    expect(Array.from((await bucket().get("brand/7/logo.png")) ?? [])).toEqual([137, 80, 78, 71]);
  });

  it("answers null for a file it does not hold, as the local folder does", async () => {
    expect(await bucket().get("brand/7/none.png")).toBeNull();
    expect(await bucket().open("reports/7/1/none.csv")).toBeNull();
  });

  it("streams a file bigger than one upload part in parts, whole and in order, and opens it with its size", async () => {
    const line = "order,customer,amount\r\n";
    const lines = 400_000; // 9.2 MB: more than one 8 MiB part
    const { bytes } = await bucket().putStream("reports/7/2/big.csv", async (output) => {
      for (let index = 0; index < lines; index += 10_000) {
        if (!output.write(line.repeat(10_000))) await new Promise((resolve) => output.once("drain", resolve));
      }
    });
    expect(bytes).toBe(line.length * lines);
    const opened = await bucket().open("reports/7/2/big.csv");
    expect(opened?.size).toBe(bytes);
    const body = await text(opened!.stream());
    expect(body.length).toBe(bytes);
    expect(body.slice(0, line.length * 2)).toBe(line + line);
  });

  it("shows nothing under the key when the writer fails half-way, and the error reaches the caller", async () => {
    await expect(
      bucket().putStream("reports/7/3/broken.csv", async (output) => {
        output.write("x".repeat(9 * 1024 * 1024));
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("database went away");
      }),
    ).rejects.toThrow("database went away");
    expect(await bucket().open("reports/7/3/broken.csv")).toBeNull();
  });

  it("refuses keys that would leave their prefix", async () => {
    await expect(bucket().put("../elsewhere/file", new Uint8Array([1]))).rejects.toThrow("Invalid storage key");
    await expect(bucket().get("brand//logo.png")).rejects.toThrow("Invalid storage key");
  });

  it("is an error, not a missing file, when the bucket cannot be reached", async () => {
    const unreachable: FileStorage = createS3Storage({
      bucket: "pay-files",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      prefix: "",
    });
    await expect(unreachable.get("brand/7/logo.png")).rejects.toThrow();
  });
});

describe("a report on an installation with a bucket", () => {
  it("is written to the bucket by the worker and downloaded from it, so any instance can serve it", async () => {
    const admin = { ...shop.admin, is_superuser: 1, permissions: [] as string[] };
    const asked = await requestExport(database.db, {
      merchantId: shop.merchantId,
      user: admin,
      section: "payment_request",
      query: "",
      fileFormat: "csv",
      exportType: "selected",
      fields: ["order_no", "amount"],
      language: "ar",
    });
    if (!asked.ok) throw new Error("export refused");
    expect(await runReadyJobs(database.db)).toBe(1);
    const report = await database.db
      .selectFrom("reports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(report.state).toBe("done");
    expect(report.file_path).toBe(`reports/${shop.merchantId}/${asked.id}/${report.file_name}`);
    expect(objectsInBucket()).toContain(`kw/production/${report.file_path}`);
    expect(fs.readdirSync(reportsDir)).toEqual([]);

    const download = await openReportDownload(database.db, { merchantId: shop.merchantId, user: admin, id: asked.id });
    if (!download.ok) throw new Error(`download refused: ${download.reason}`);
    expect(download.size).toBe(report.file_size);
    const csv = await text(download.open());
    expect(csv.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("رقم الطلب,المبلغ");
  });
});
