/** The parts of s3rver (a loopback S3-compatible server for tests) the tests use; it ships no types. */
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  type BucketConfig = { name: string; configs: (string | Buffer)[] };
  type Options = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: BucketConfig[];
  };

  export default class S3rver {
    constructor(options?: Options);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
