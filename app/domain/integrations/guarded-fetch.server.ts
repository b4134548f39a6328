import http from "node:http";
import https from "node:https";
import { guardedLookup, isPrivateHost } from "./webhook-targets.server";

/** The most of an answer kept: a gateway's JSON is a few kilobytes. */
const MAX_ANSWER = 1024 * 1024;

type GuardedInit = {
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  body?: string | URLSearchParams;
  signal: AbortSignal;
  /** A client certificate and its key (PEM) for mutual TLS (Apple Pay's merchant validation); only on a guarded https call. */
  clientCertificate?: { cert: string; key: string };
};

/**
 * `fetch` for a call to an address a merchant entered (a payment gateway's endpoint): when
 * `guarded`, the host is refused if it is private by its form, and the connection is made to the
 * address its name resolved to and passed the check (guardedLookup), never to one resolved again
 * afterwards. Redirects are not followed. Unguarded (the sandboxes on this machine), plain fetch.
 */
export async function guardedFetch(url: string, init: GuardedInit, guarded: boolean): Promise<Response> {
  if (!guarded) {
    const { clientCertificate, ...plain } = init;
    if (clientCertificate) throw new Error("A client certificate is presented only on a guarded call");
    return fetch(url, { ...plain, redirect: "manual" });
  }
  const target = new URL(url);
  if (!/^https?:$/.test(target.protocol))
    throw new TypeError(`${target.protocol} is not an address a gateway is called at`);
  if (isPrivateHost(target.hostname))
    throw new Error(`${target.hostname} is a private or loopback address; it may not be reached`);
  const body = init.body === undefined ? undefined : Buffer.from(String(init.body));
  const headers: Record<string, string> = { ...init.headers };
  if (body) {
    headers["Content-Length"] = String(body.length);
    if (
      init.body instanceof URLSearchParams &&
      !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")
    ) {
      headers["Content-Type"] = "application/x-www-form-urlencoded;charset=UTF-8";
    }
  }
  const client = target.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const tls =
      init.clientCertificate && target.protocol === "https:"
        ? { cert: init.clientCertificate.cert, key: init.clientCertificate.key }
        : {};
    if (init.clientCertificate && target.protocol !== "https:")
      return reject(new Error("A client certificate is presented only over https"));
    const request = client.request(
      target,
      { method: init.method, headers, lookup: guardedLookup(true), signal: init.signal, ...tls },
      (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER) return answer.destroy(new Error("The answer is too large"));
          chunks.push(chunk);
        });
        answer.on("error", reject);
        answer.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          const status = answer.statusCode ?? 502;
          const nullBody = status === 204 || status === 205 || status === 304;
          resolve(
            new Response(nullBody ? null : Buffer.concat(chunks), {
              status,
              statusText: answer.statusMessage,
              headers: responseHeaders,
            }),
          );
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
