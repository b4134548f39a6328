import { PassThrough, Writable, type Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import type * as Sdk from "@aws-sdk/client-s3";
import type { Env } from "./env.server";
import { checkStorageKey } from "./storage-keys";
import type { FileStorage } from "./storage.server";

export type S3StorageOptions = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the SDK's own credential chain (an instance role, AWS_* variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Put before every key, without slashes at its ends; "" for none. */
  prefix: string;
};

/** The bucket this installation uses, or null when its files stay in local folders (S3_BUCKET unset). */
export function s3OptionsOf(config: Env): S3StorageOptions | null {
  if (!config.S3_BUCKET) return null;
  return {
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    // S3-compatible services are mostly reached at one host, the bucket in the path.
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT),
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    prefix: (config.S3_PREFIX ?? "").replace(/^\/+|\/+$/g, ""),
  };
}

/**
 * Reports are uploaded in parts of this size: one part in memory at a time, however large the
 * file. S3 takes at most 10,000 parts (80 GB here) and no part but the last under 5 MiB.
 */
const PART_SIZE = 8 * 1024 * 1024;
const MAX_KEY_BYTES = 1024;

// The SDK takes over half a second to load: an installation on local folders never loads it.
let sdk: Promise<typeof Sdk> | undefined;
const loadSdk = () => (sdk ??= import("@aws-sdk/client-s3"));

function isMissing(error: unknown) {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure?.name === "NoSuchKey" || failure?.name === "NotFound" || failure?.$metadata?.httpStatusCode === 404;
}

/** A bucket (or a prefix in one) of an S3-compatible service as the platform's file storage. */
export function createS3Storage(options: S3StorageOptions): FileStorage {
  let client: Promise<Sdk.S3Client> | undefined;
  const connect = () =>
    (client ??= loadSdk().then(
      ({ S3Client }) =>
        new S3Client({
          region: options.region,
          endpoint: options.endpoint,
          forcePathStyle: options.forcePathStyle,
          credentials: options.credentials,
          // Checksums only where S3 requires them: several S3-compatible services refuse the newer
          // trailing-checksum uploads; requests stay signed either way.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        }),
    ));
  const bucketKey = (key: string) => {
    checkStorageKey(key);
    const full = options.prefix ? `${options.prefix}/${key}` : key;
    if (Buffer.byteLength(full) > MAX_KEY_BYTES) throw new Error("Storage key too long");
    return full;
  };
  const target = (key: string) => ({ Bucket: options.bucket, Key: bucketKey(key) });

  return {
    async put(key, data) {
      const { PutObjectCommand } = await loadSdk();
      await (
        await connect()
      ).send(new PutObjectCommand({ ...target(key), Body: data, ContentLength: data.byteLength }));
    },
    async get(key) {
      const { GetObjectCommand } = await loadSdk();
      try {
        const answer = await (await connect()).send(new GetObjectCommand(target(key)));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        // Missing is null, as on disk; an unreachable bucket is an error, not a missing file.
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const { GetObjectCommand, HeadObjectCommand } = await loadSdk();
      const object = target(key);
      const s3 = await connect();
      let size: number;
      try {
        size = (await s3.send(new HeadObjectCommand(object))).ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      return {
        size,
        // The body is asked for when the response is sent: a file opened and never sent holds no connection.
        stream: () => {
          const output = new PassThrough();
          s3.send(new GetObjectCommand(object))
            .then((answer) => {
              if (!answer.Body) throw new Error(`Stored file ${key} has no body`);
              return pipeline(answer.Body as Readable, output);
            })
            .catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
          return output;
        },
      };
    },
    async putStream(key, write) {
      const upload = new UploadStream(await loadSdk(), await connect(), target(key));
      upload.on("error", () => {});
      try {
        await write(upload);
        upload.end();
        await finished(upload);
        return { bytes: upload.bytes };
      } catch (error) {
        upload.destroy();
        await upload.abandon();
        throw error;
      }
    },
    async delete(key) {
      const { DeleteObjectCommand } = await loadSdk();
      await (await connect()).send(new DeleteObjectCommand(target(key)));
    },
    // An unfinished multipart upload is never visible under its key, and ListMultipartUploads is not
    // offered by every S3-compatible service: the bucket's lifecycle rule for incomplete multipart
    // uploads (decision 0034) removes what a stopped process left.
    async removeIncomplete() {},
    async listIncomplete() {
      return [];
    },
  };
}

/**
 * A file written to the bucket as it is produced: a small file is one PutObject at the end; a file
 * larger than a part becomes a multipart upload, each part sent before more is taken, so the
 * writer waits for the network instead of filling memory. Nothing is visible before the end.
 */
class UploadStream extends Writable {
  bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private uploadId: string | undefined;
  private readonly parts: { ETag: string; PartNumber: number }[] = [];

  constructor(
    private readonly sdk: typeof Sdk,
    private readonly s3: Sdk.S3Client,
    private readonly object: { Bucket: string; Key: string },
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.bytes += chunk.length;
    if (this.pendingBytes < PART_SIZE) return callback();
    this.sendPart().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void) {
    this.complete().then(() => callback(), callback);
  }

  /** Gives up an upload begun and not completed; its parts would otherwise be kept (and billed) until the lifecycle rule. */
  async abandon() {
    const uploadId = this.uploadId;
    this.uploadId = undefined;
    if (!uploadId) return;
    await this.s3
      .send(new this.sdk.AbortMultipartUploadCommand({ ...this.object, UploadId: uploadId }))
      .catch(() => {});
  }

  private take() {
    const body = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return body;
  }

  private async sendPart() {
    if (!this.uploadId) {
      const created = await this.s3.send(new this.sdk.CreateMultipartUploadCommand(this.object));
      if (!created.UploadId) throw new Error("The storage service started no multipart upload");
      this.uploadId = created.UploadId;
    }
    const body = this.take();
    const PartNumber = this.parts.length + 1;
    const sent = await this.s3.send(
      new this.sdk.UploadPartCommand({
        ...this.object,
        UploadId: this.uploadId,
        PartNumber,
        Body: body,
        ContentLength: body.length,
      }),
    );
    if (!sent.ETag) throw new Error("The storage service gave no ETag for an uploaded part");
    this.parts.push({ ETag: sent.ETag, PartNumber });
  }

  private async complete() {
    if (!this.uploadId) {
      const body = this.take();
      await this.s3.send(new this.sdk.PutObjectCommand({ ...this.object, Body: body, ContentLength: body.length }));
      return;
    }
    if (this.pendingBytes > 0) await this.sendPart();
    await this.s3.send(
      new this.sdk.CompleteMultipartUploadCommand({
        ...this.object,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
    this.uploadId = undefined;
  }
}
