/** The decryption half of http_ece (RFC 8188 encrypted content), which tests use to read a push as a browser would. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";

  type Parameters = { version: "aes128gcm"; privateKey: ECDH; authSecret: Buffer };
  const ece: { decrypt(body: Buffer, parameters: Parameters): Buffer };
  export default ece;
}
