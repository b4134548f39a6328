// What the chaos scripts share (`npm run chaos:payments`, `npm run chaos:cluster`): seeded
// randomness, the server under test started and killed, the simulated customers paying links and
// staff refunding them through the merchant API, and the gateways' books read and compared with
// the platform's, straight from the database.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/test";
export const DEMO = { username: "admin", password: "Demo@2026!" };
export const CARDS = {
  knetCaptured: "8888880000000001",
  knetDeclined: "8888880000000002",
  cardApproved: "5123450000000008",
  cardDeclined: "5123450000000008",
};
/** The Mastercard Gateway test card's outcome is set by its expiry. */
export const EXPIRIES = { approved: "01/39", declined: "05/39" };
export const GATEWAYS = {
  knet: { code: "knet-sandbox", label: "KNET" },
  mpgs: { code: "mpgs-sandbox", label: "MPGS" },
};
export const OPEN_ATTEMPT_STATES = ["pending", "failed", "canceled", "error"];
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// --- Randomness (seeded, so a run's choices can be repeated) ------------------------------------

let seed = 0;

/** Sets the seed of every choice made from here on. */
export function setSeed(value) {
  seed = value | 0;
}
export function random() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
export const between = (low, high) => low + Math.floor(random() * (high - low + 1));
export const chance = (p) => random() < p;

// --- Money (KWD, 3 decimals, integers of fils) --------------------------------------------------

export function toMinor(decimal) {
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(String(decimal ?? "").trim());
  if (!match) return NaN;
  return Number(match[1]) * 1000 + Number((match[2] ?? "").padEnd(3, "0"));
}
export const toDecimal = (minor) => `${Math.trunc(minor / 1000)}.${String(Math.abs(minor) % 1000).padStart(3, "0")}`;

// --- The server under test ----------------------------------------------------------------------

export const freePort = () =>
  new Promise((resolve) => {
    const probe = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * `node server.js` (or `args`) as a child, its output appended to `logFile`. Ready when /healthz on
 * its PORT answers, or, for a process that serves no HTTP (the worker), once its output has shown
 * `readyLine`.
 */
export class Server {
  constructor({ env, logFile, args = ["server.js"], name = "server.js", readyLine }) {
    this.env = env;
    this.logFile = logFile;
    this.args = args;
    this.name = name;
    this.readyLine = readyLine;
    this.base = `http://127.0.0.1:${env.PORT}`;
    this.child = null;
    this.tail = "";
    this.starts = 0;
  }

  get running() {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(timeoutMs = 120_000) {
    const log = fs.openSync(this.logFile, "a");
    fs.writeSync(log, `\n=== start ${++this.starts} at ${new Date().toISOString()} ===\n`);
    const child = spawn(process.execPath, this.args, { cwd: root, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk) => {
      fs.writeSync(log, chunk);
      this.tail = (this.tail + chunk).slice(-4000);
      if (this.readyLine && !output.includes(this.readyLine)) output += chunk;
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("exit", () => fs.closeSync(log));
    this.child = child;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${this.name} exited (code ${child.exitCode}):\n${this.tail}`);
      const ok = this.readyLine
        ? output.includes(this.readyLine)
        : await fetch(`${this.base}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
            (response) => response.ok,
            () => false,
          );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`${this.name} was not ready within ${timeoutMs / 1000} s:\n${this.tail}`);
  }

  /** SIGKILL: no shutdown of any kind, as a power cut or the OOM killer. */
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.kill("SIGTERM");
    await exited;
    clearTimeout(force);
  }
}

// --- HTTP as a browser or a merchant's system does it --------------------------------------------

/** One request, no redirects followed; throws on a network error or a timeout (the server may be down). */
export async function call(url, { method = "GET", headers = {}, form, json, timeoutMs = 15_000 } = {}) {
  const init = { method, headers: { ...headers }, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) };
  if (form) {
    init.headers["Content-Type"] = "application/x-www-form-urlencoded";
    init.body = new URLSearchParams(form).toString();
  } else if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, location: response.headers.get("Location"), text };
}

export class Abandoned extends Error {}

/**
 * A merchant's system retrying with its Idempotency-Key outlasts the key's 60 s lease: a key whose
 * request died with the server is then taken over, and a refund resumes the operation it started.
 */
export const KEY_PATIENCE_MS = 90_000;

/**
 * A step retried as a person would: again after a network error or a 5xx (the server is being
 * restarted), for at most `patienceMs`; `accept` says whether an answer is the one wanted (false: try
 * again), or throws Abandoned when it is an answer that retrying would not change.
 */
export async function persist(what, stats, attempt, accept, patienceMs = 20_000) {
  const deadline = Date.now() + patienceMs;
  const seen = new Set();
  for (let tries = 0; ; tries++) {
    try {
      const answer = await attempt(tries);
      if (answer.status < 500 && accept(answer)) return answer;
      seen.add(`HTTP ${answer.status}`);
    } catch (error) {
      if (error instanceof Abandoned) throw error;
      seen.add(error?.cause?.code ?? error?.name ?? String(error));
    }
    stats.retries++;
    if (Date.now() > deadline)
      throw new Abandoned(`${what} [${[...seen].join(", ")}]: gave up after ${tries + 1} tries`);
    await sleep(between(250, 700));
  }
}

// --- The simulated people ------------------------------------------------------------------------

export class Merchant {
  constructor(server, stats) {
    this.server = server;
    this.stats = stats;
    this.token = null;
  }

  async signIn() {
    const answer = await persist(
      "sign-in",
      this.stats,
      () => call(`${this.server.base}/api/v1/user/token/`, { method: "POST", json: DEMO }),
      (a) => a.status === 200,
      60_000,
    );
    this.token = JSON.parse(answer.text).access;
  }

  /** An API call with the bearer token, signing in again when it has expired. */
  async api(pathname, options = {}) {
    if (!this.token) await this.signIn();
    const answer = await call(`${this.server.base}${pathname}`, {
      ...options,
      headers: { ...options.headers, Authorization: `Bearer ${this.token}` },
    });
    if (answer.status === 401) {
      await this.signIn();
      return call(`${this.server.base}${pathname}`, {
        ...options,
        headers: { ...options.headers, Authorization: `Bearer ${this.token}` },
      });
    }
    return answer;
  }
}

/**
 * A customer paying one payment link, or giving up on the way. A customer whose page failed may come
 * back to the link and pay again, with either gateway: when the first payment had gone through after
 * all, that is a second payment of the same link, which the platform must keep as a duplicate.
 */
export async function customerFlow(ctx) {
  const { merchant, stats } = ctx;
  const amount = toDecimal(between(1, 60) * 1000 + between(0, 39) * 25);
  // The merchant's system creates the link; the same Idempotency-Key when it retries.
  const key = randomUUID();
  const created = await persist(
    "create payment request",
    stats,
    () =>
      merchant.api("/api/v1/plugins/payment_request/transaction/", {
        method: "POST",
        headers: { "Idempotency-Key": key },
        json: {
          amount,
          currency_code: "KWD",
          pg_codes: [GATEWAYS.knet.code, GATEWAYS.mpgs.code],
          description: "Chaos order",
          customer_email: "chaos@example.com",
        },
      }),
    (a) => {
      if (a.status === 201) return true;
      if (a.status === 409) return false; // the first try is still being worked on, or was cut short
      throw new Abandoned(`create [HTTP ${a.status}]: ${a.text.slice(0, 200)}`);
    },
    KEY_PATIENCE_MS,
  );
  stats.requests++;
  const { id, checkout_url: checkoutUrl } = JSON.parse(created.text);
  const payPage = new URL(checkoutUrl).pathname;

  for (let round = 1; ; round++) {
    let outcome;
    try {
      outcome = await payOnce(ctx, id, payPage);
    } catch (error) {
      if (!(error instanceof Abandoned) || round >= 3 || !chance(0.5)) throw error;
      stats.cameBack++;
      await sleep(between(500, 3000));
      continue;
    }
    if (outcome !== "declined" || round >= 3) return outcome;
    // Declined: "Try again".
  }
}

/**
 * One round on the pay page: choose a gateway, pay on its page, come back (or close the tab). A few
 * customers have the link open in two tabs and pay in both before either comes back.
 */
export async function payOnce(ctx, id, payPage) {
  const { server, stats } = ctx;
  const base = server.base;
  const tabs = chance(0.06) ? 2 : 1;
  const started = [];
  for (let tab = 0; tab < tabs; tab++) {
    const page = await persist(
      "open the pay page",
      stats,
      () => call(`${base}${payPage}`),
      (a) => a.status === 200,
    );
    if (!page.text.includes('name="gateway_code"')) return "settled"; // paid meanwhile (the reconciler, a notification)
    const token = /name="submission_token"\s+value="([^"]+)"/.exec(page.text)?.[1] ?? randomUUID();
    started.push({ token, kind: chance(0.5) ? "knet" : "mpgs", decline: chance(0.08) });
  }
  if (tabs === 2) {
    stats.twoTabs++;
    ctx.twoTabs.add(id);
  }
  // Pay Now in every tab first, then each gateway's page: the link is still payable in the second tab.
  const gateways = [];
  for (const { token, kind, decline } of started) {
    stats.attempts[kind]++;
    // Pay Now; a resubmitted form (same token) goes where the first one went.
    const payNow = await persist(
      "Pay Now",
      stats,
      () =>
        call(`${base}${payPage}`, {
          method: "POST",
          headers: { Origin: base },
          form: { gateway_code: GATEWAYS[kind].code, submission_token: token },
        }),
      (a) => {
        if (a.status === 303 && a.location) return true;
        throw new Abandoned(`Pay Now [HTTP ${a.status}]`); // the page again, with an error
      },
    );
    const gatewayUrl = new URL(payNow.location, base).toString();
    if (new URL(gatewayUrl).pathname.includes("/pay/attempt-detail/")) return "settled";
    gateways.push({ kind, gatewayUrl, decline });
  }
  const backs = [];
  for (const { kind, gatewayUrl, decline } of gateways)
    backs.push({ back: await payAtGateway(ctx, id, kind, gatewayUrl, decline), decline });
  // Some customers close the tab as soon as the gateway has taken the money: only the gateway's
  // notification (card) or the reconciler's inquiry can tell the platform.
  if (chance(0.15)) {
    stats.closedTab++;
    return "closed tab";
  }
  for (const { back } of backs) {
    const result = await persist(
      "return from the gateway",
      stats,
      () => call(back),
      (a) => {
        if (a.status === 303 || a.status === 302 || a.status === 200) return true;
        throw new Abandoned(`return [HTTP ${a.status}]`);
      },
    );
    if (result.location) await call(new URL(result.location, base).toString()).catch(() => undefined);
  }
  return backs.every((b) => b.decline) ? "declined" : tabs === 2 ? "paid in two tabs" : "paid";
}

/** On the gateway's own page: a test card, submitted; answers where the gateway sends the browser back. */
export async function payAtGateway(ctx, id, kind, gatewayUrl, decline) {
  const { server, stats, paid } = ctx;
  let back;
  if (kind === "knet") {
    // KNET's init opens its hosted page (each opening is a new KNET payment for the same track id).
    const init = await persist(
      "KNET init",
      stats,
      () => call(gatewayUrl),
      (a) => {
        if (a.status === 303 && a.location) return true;
        throw new Abandoned(`KNET init [HTTP ${a.status}]`);
      },
    );
    const knetPage = new URL(init.location, gatewayUrl).toString();
    const card = decline ? CARDS.knetDeclined : CARDS.knetCaptured;
    if (!decline) paid.add(id);
    const submitted = await persist(
      "KNET submit",
      stats,
      () =>
        call(knetPage, {
          method: "POST",
          headers: { Origin: server.base },
          form: { intent: "submit", cardNumber: card, pin: "1234" },
        }),
      (a) => {
        if (a.status === 303 && a.location) return true;
        // Processed by a try whose answer was lost: the customer has no way back from this page.
        throw new Abandoned(`KNET submit [HTTP ${a.status}]`);
      },
    );
    back = new URL(submitted.location, knetPage).toString();
  } else {
    const card = decline ? CARDS.cardDeclined : CARDS.cardApproved;
    if (!decline) paid.add(id);
    const submitted = await persist(
      "card pay",
      stats,
      () =>
        call(gatewayUrl, {
          method: "POST",
          headers: { Origin: new URL(gatewayUrl).origin },
          form: { cardNumber: card, expiry: decline ? EXPIRIES.declined : EXPIRIES.approved, cvv: "123" },
        }),
      (a) => {
        if (a.status === 303 && a.location) return true;
        throw new Abandoned(`card pay [HTTP ${a.status}]`);
      },
    );
    back = new URL(submitted.location, gatewayUrl).toString();
  }
  stats.submitted[kind]++;
  return back;
}

/**
 * A member of staff refunding a paid link, in part or in full, once or several times: its own
 * payment, or a duplicate payment listed on its details.
 */
export async function staffRefund(ctx) {
  const { merchant, stats, paid } = ctx;
  // Links paid in two tabs are the ones the dashboard flags: staff look at those first.
  const ids = ctx.twoTabs.size > 0 && chance(0.3) ? [...ctx.twoTabs] : [...paid];
  if (ids.length === 0) return "nothing";
  const id = ids[between(0, ids.length - 1)];
  const giveUp = (error) => {
    if (!(error instanceof Abandoned)) throw error;
    return null;
  };
  const details = await persist(
    "details",
    stats,
    () => merchant.api(`/api/v1/plugins/payment_request/transaction/details/${id}/`),
    (a) => a.status === 200,
  ).catch(giveUp);
  if (!details) return "no details";
  const duplicates = (JSON.parse(details.text).duplicate_payments ?? []).filter(
    (d) => toMinor(d.refundable_amount) > 0,
  );
  const actionPath = `/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`;
  let available;
  let attemptId = null;
  if (duplicates.length > 0 && chance(0.6)) {
    const duplicate = duplicates[between(0, duplicates.length - 1)];
    attemptId = duplicate.attempt_id;
    available = toMinor(duplicate.refundable_amount);
  } else {
    const offered = await persist(
      "refund action",
      stats,
      () => merchant.api(actionPath),
      (a) => {
        if (a.status === 200) return true;
        if (a.status === 404) throw new Abandoned("not refundable");
        return false;
      },
    ).catch(giveUp);
    if (!offered) return "not refundable";
    available = toMinor(JSON.parse(offered.text).available_amount);
  }
  if (!(available > 0)) return "nothing left";
  const full = chance(0.35);
  const amount = full ? null : toDecimal(between(1, Math.max(1, Math.floor(available / 2))));
  const key = randomUUID();
  stats.refunds.asked++;
  if (attemptId) stats.refunds.duplicates++;
  const answer = await persist(
    "refund",
    stats,
    () =>
      merchant.api(actionPath, {
        method: "POST",
        headers: { "Idempotency-Key": key },
        json: attemptId ? { amount, attempt_id: attemptId } : { amount },
      }),
    (a) => {
      if ([200, 201, 202, 400].includes(a.status)) return true;
      if (a.status === 409) return false; // the first try with this key is still running, or was cut short
      throw new Abandoned(`refund [HTTP ${a.status}]: ${a.text.slice(0, 200)}`);
    },
    KEY_PATIENCE_MS,
  ).catch((error) => {
    if (error instanceof Abandoned) {
      stats.refunds.abandoned++;
      const reason = error.message.replace(/:.*/s, "");
      stats.abandoned[reason] = (stats.abandoned[reason] ?? 0) + 1;
      return null;
    }
    throw error;
  });
  if (!answer) return "abandoned";
  if (answer.status === 200) stats.refunds.done++;
  else if (answer.status === 202) stats.refunds.checking++;
  else if (answer.status === 400) stats.refunds.refused++;
  else stats.refunds.other++;
  return String(answer.status);
}

// --- Reading the books ---------------------------------------------------------------------------

export async function openReader(engine, { sqlitePath, databaseUrl }) {
  if (engine === "sqlite") {
    const db = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    return { all: async (sqlText, params = []) => db.prepare(sqlText).all(...params), close: async () => db.close() };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return {
    all: async (sqlText, params = []) => {
      let n = 0;
      return (
        await pool.query(
          sqlText.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    },
    close: () => pool.end(),
  };
}

export const num = (value) => (value === null || value === undefined ? value : Number(value));

export async function readBooks(reader) {
  const rows = async (sqlText, params) =>
    (await reader.all(sqlText, params)).map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])),
    );
  const [attempts, ledger, operations, transactions, knet, cardPayments, cardOperations] = await Promise.all([
    rows(
      "select id, transaction_id, gateway_kind, state, total, track_id, gateway_reference, payment_id, tran_id, authorized_only, result_code from payment_attempts",
    ),
    rows("select transaction_id, attempt_id, kind, amount from ledger_entries"),
    rows(
      "select o.id, o.transaction_id, o.attempt_id, o.kind, o.state, o.amount, o.reference, o.gateway_code, o.message, o.created_at, o.completed_at, g.kind as gateway_kind from transaction_operations o left join gateways g on g.merchant_id = o.merchant_id and g.code = o.gateway_code",
    ),
    rows(
      "select id, order_no, state, paid_amount, captured_amount, refunded_amount, voided_amount, paid_attempt_id from transactions",
    ),
    rows("select payment_id, track_id, amount, action, udf, result, tran_id from sandbox_knet_payments"),
    rows(
      "select order_id as id, order_id as reference, amount, status, total_captured as captured_amount, total_refunded as refunded_amount from sandbox_mpgs_orders",
    ),
    rows(
      "select order_id as payment_id, transaction_id as reference, case type when 'REFUND' then 'refund' when 'CAPTURE' then 'capture' else 'void' end as kind, amount, case result when 'SUCCESS' then 'succeeded' else 'failed' end as status from sandbox_mpgs_transactions where type in ('REFUND', 'CAPTURE', 'VOID_AUTHORIZATION')",
    ),
  ]);
  for (const list of [attempts, ledger, operations, transactions, cardPayments, cardOperations]) {
    for (const row of list)
      for (const column of ["total", "amount", "paid_amount", "captured_amount", "refunded_amount", "voided_amount"])
        if (column in row) row[column] = num(row[column]);
  }
  return { attempts, ledger, operations, transactions, knet, cardPayments, cardOperations };
}

/** Whether the reconciler has caught up: nothing reserved in flight, no open attempt overdue for its inquiry. */
export async function backlog(reader) {
  const overdue = new Date(Date.now() - 25_000).toISOString();
  const [operations] = await reader.all("select count(*) as n from transaction_operations where state = 'pending'");
  const [attempts] = await reader.all(
    `select count(*) as n from payment_attempts where state in (${OPEN_ATTEMPT_STATES.map(() => "?").join(", ")}) and next_inquiry_at is not null and next_inquiry_at < ?`,
    [...OPEN_ATTEMPT_STATES, overdue],
  );
  return { operations: Number(operations.n), attempts: Number(attempts.n) };
}

/** The gateways' books against the platform's: a summary per gateway and every difference. */
export function compare(books) {
  const differences = [];
  const differ = (gateway, text) => differences.push(`${GATEWAYS[gateway]?.label ?? gateway}: ${text}`);
  const attemptsByTrack = new Map(books.attempts.map((a) => [a.track_id, a]));
  const attemptsById = new Map(books.attempts.map((a) => [a.id, a]));
  const transactionsById = new Map(books.transactions.map((t) => [t.id, t]));
  const ledgerKey = (attemptId, kind) => `${attemptId}\u0000${kind}`;
  const ledger = new Map(books.ledger.map((entry) => [ledgerKey(entry.attempt_id, entry.kind), entry]));
  const summary = {};
  for (const gateway of Object.keys(GATEWAYS))
    summary[gateway] = { captured: [0, 0], recorded: [0, 0], refundedAtGateway: [0, 0], refundsRecorded: [0, 0] };
  const add = (pair, amount) => {
    pair[0]++;
    pair[1] += amount;
  };

  // Captures at the gateways, by our track id.
  const captures = { knet: new Map(), mpgs: new Map() };
  const knetPurchaseByTranId = new Map();
  for (const payment of books.knet) {
    if (payment.action !== "1") continue;
    if (payment.tran_id) knetPurchaseByTranId.set(payment.tran_id, payment);
    if (payment.result !== "CAPTURED") continue;
    const amount = toMinor(payment.amount);
    add(summary.knet.captured, amount);
    const list = captures.knet.get(payment.track_id) ?? [];
    list.push({ amount, ref: `payment ${payment.payment_id}` });
    captures.knet.set(payment.track_id, list);
  }
  for (const payment of books.cardPayments) {
    if (!(payment.captured_amount > 0)) continue;
    add(summary.mpgs.captured, payment.captured_amount);
    const list = captures.mpgs.get(payment.reference) ?? [];
    list.push({ amount: payment.captured_amount, ref: payment.id });
    captures.mpgs.set(payment.reference, list);
  }

  for (const gateway of Object.keys(captures)) {
    for (const [trackId, list] of captures[gateway]) {
      const attempt = attemptsByTrack.get(trackId);
      if (list.length > 1)
        differ(
          gateway,
          `track id ${trackId} captured ${list.length} times at the gateway (${list.map((c) => `${c.ref} ${toDecimal(c.amount)}`).join(", ")})`,
        );
      const captured = list.reduce((sum, c) => sum + c.amount, 0);
      if (!attempt) differ(gateway, `capture of ${toDecimal(captured)} for track id ${trackId} that no attempt has`);
      else if (attempt.state !== "success")
        differ(
          gateway,
          `capture of ${toDecimal(captured)} (track id ${trackId}) not recorded: attempt ${attempt.id} is ${attempt.state}${attempt.result_code ? ` (${attempt.result_code})` : ""}, transaction ${attempt.transaction_id} is ${transactionsById.get(attempt.transaction_id)?.state}`,
        );
      else if (attempt.total !== captured)
        differ(
          gateway,
          `attempt ${attempt.id} recorded ${toDecimal(attempt.total)}, the gateway captured ${toDecimal(captured)}`,
        );
    }
  }

  // Payments recorded by the platform.
  for (const attempt of books.attempts) {
    if (!(attempt.gateway_kind in GATEWAYS)) continue;
    const entry = ledger.get(ledgerKey(attempt.id, attempt.authorized_only ? "authorization" : "payment"));
    if (attempt.state !== "success") {
      if (entry)
        differ(
          attempt.gateway_kind,
          `ledger payment of ${toDecimal(entry.amount)} for attempt ${attempt.id}, which is ${attempt.state}`,
        );
      continue;
    }
    add(summary[attempt.gateway_kind].recorded, attempt.total);
    if (!captures[attempt.gateway_kind].has(attempt.track_id))
      differ(
        attempt.gateway_kind,
        `recorded payment of ${toDecimal(attempt.total)} (attempt ${attempt.id}, track id ${attempt.track_id}) that the gateway does not have`,
      );
    if (!entry) differ(attempt.gateway_kind, `paid attempt ${attempt.id} has no ledger entry`);
    else if (entry.amount !== attempt.total)
      differ(
        attempt.gateway_kind,
        `ledger entry of attempt ${attempt.id} is ${toDecimal(entry.amount)}, the attempt ${toDecimal(attempt.total)}`,
      );
  }

  // Refunds at the gateways, by the operation's reference, with the payment they came out of.
  const gatewayRefunds = new Map();
  for (const payment of books.knet) {
    if (payment.action !== "2" || payment.result !== "CAPTURED") continue;
    const amount = toMinor(payment.amount);
    add(summary.knet.refundedAtGateway, amount);
    let transid = null;
    try {
      transid = JSON.parse(payment.udf).transid ?? null;
    } catch {
      // an unreadable udf: the refund is still counted, against no payment
    }
    const original = transid ? knetPurchaseByTranId.get(transid) : undefined;
    const entry = gatewayRefunds.get(payment.track_id);
    if (entry) entry.count++;
    else
      gatewayRefunds.set(payment.track_id, {
        gateway: "knet",
        amount,
        count: 1,
        paymentTrack: original?.track_id ?? null,
        ref: `KNET refund ${payment.payment_id}`,
      });
  }
  const cardPaymentsById = new Map(books.cardPayments.map((p) => [p.id, p]));
  const cardRefundedByPayment = new Map();
  for (const operation of books.cardOperations) {
    if (operation.kind !== "refund" || operation.status !== "succeeded") continue;
    add(summary.mpgs.refundedAtGateway, operation.amount);
    cardRefundedByPayment.set(
      operation.payment_id,
      (cardRefundedByPayment.get(operation.payment_id) ?? 0) + operation.amount,
    );
    gatewayRefunds.set(operation.reference, {
      gateway: "mpgs",
      amount: operation.amount,
      count: 1,
      paymentTrack: cardPaymentsById.get(operation.payment_id)?.reference ?? null,
      ref: `MPGS refund ${operation.reference}`,
    });
  }
  // The card sandbox's own total per payment must be the sum of its refunds (none sent without a reference).
  for (const payment of books.cardPayments) {
    const byOperations = cardRefundedByPayment.get(payment.id) ?? 0;
    if (payment.refunded_amount !== byOperations)
      differ(
        "mpgs",
        `MPGS order ${payment.id} shows ${toDecimal(payment.refunded_amount)} refunded, its refund operations ${toDecimal(byOperations)}`,
      );
  }

  const operationsByReference = new Map(books.operations.filter((o) => o.reference).map((o) => [o.reference, o]));
  for (const [reference, refund] of gatewayRefunds) {
    const operation = operationsByReference.get(reference);
    if (refund.count > 1)
      differ(refund.gateway, `refund reference ${reference} done ${refund.count} times at the gateway`);
    if (!operation)
      differ(
        refund.gateway,
        `${refund.ref} of ${toDecimal(refund.amount)} (reference ${reference}) that no operation has`,
      );
    else if (operation.state !== "succeeded")
      differ(
        refund.gateway,
        `${refund.ref} of ${toDecimal(refund.amount)} made at the gateway; the platform's operation ${operation.id} is ${operation.state}${operation.message ? ` (${operation.message})` : ""}`,
      );
    else if (operation.amount !== refund.amount)
      differ(
        refund.gateway,
        `operation ${operation.id} recorded a refund of ${toDecimal(operation.amount)}, the gateway refunded ${toDecimal(refund.amount)}`,
      );
  }

  // Refunds recorded by the platform, and operations left open.
  const ownRefunds = new Map();
  for (const operation of books.operations) {
    const gateway = operation.gateway_kind;
    if (operation.state === "pending" || operation.state === "attention") {
      differ(
        gateway,
        `operation ${operation.id} (${operation.kind} of ${toDecimal(operation.amount)}, transaction ${operation.transaction_id}) still ${operation.state}${operation.message ? `: ${operation.message}` : ""}`,
      );
    }
    if (operation.kind !== "refund" || operation.state !== "succeeded") continue;
    if (gateway in summary) add(summary[gateway].refundsRecorded, operation.amount);
    const transaction = transactionsById.get(operation.transaction_id);
    const attemptId = operation.attempt_id ?? transaction?.paid_attempt_id;
    const attempt = attemptsById.get(attemptId);
    const refund = gatewayRefunds.get(operation.reference);
    if (!refund)
      differ(
        gateway,
        `recorded refund ${operation.id} of ${toDecimal(operation.amount)} (reference ${operation.reference}) that the gateway does not have`,
      );
    else if (attempt && refund.paymentTrack && refund.paymentTrack !== attempt.track_id)
      differ(
        gateway,
        `refund ${operation.id} was made at the gateway on track id ${refund.paymentTrack}, recorded on ${attempt.track_id}`,
      );
    const entry = ledger.get(ledgerKey(`operation-${operation.id}`, "refund"));
    if (!entry) differ(gateway, `recorded refund ${operation.id} has no ledger entry`);
    else if (entry.amount !== operation.amount)
      differ(
        gateway,
        `ledger entry of refund ${operation.id} is ${toDecimal(entry.amount)}, the operation ${toDecimal(operation.amount)}`,
      );
    if (transaction && (!operation.attempt_id || operation.attempt_id === transaction.paid_attempt_id))
      ownRefunds.set(transaction.id, (ownRefunds.get(transaction.id) ?? 0) + operation.amount);
  }
  const reservedRefunds = new Map();
  for (const operation of books.operations) {
    if (operation.kind !== "refund" || !["pending", "attention"].includes(operation.state)) continue;
    const transaction = transactionsById.get(operation.transaction_id);
    if (transaction && (!operation.attempt_id || operation.attempt_id === transaction.paid_attempt_id))
      reservedRefunds.set(transaction.id, (reservedRefunds.get(transaction.id) ?? 0) + operation.amount);
  }

  // Each transaction's totals against its own payment and refunds.
  for (const transaction of books.transactions) {
    const attempt = transaction.paid_attempt_id ? attemptsById.get(transaction.paid_attempt_id) : undefined;
    if (!attempt || !(attempt.gateway_kind in GATEWAYS)) continue;
    const gateway = attempt.gateway_kind;
    const where = `transaction ${transaction.id} (order ${transaction.order_no}, ${transaction.state})`;
    if (attempt.state !== "success")
      differ(gateway, `${where} is paid by attempt ${attempt.id}, which is ${attempt.state}`);
    if (transaction.captured_amount !== attempt.total)
      differ(
        gateway,
        `${where} shows ${toDecimal(transaction.captured_amount)} captured, its payment ${toDecimal(attempt.total)}`,
      );
    const refunded = (ownRefunds.get(transaction.id) ?? 0) + (reservedRefunds.get(transaction.id) ?? 0);
    if (transaction.refunded_amount !== refunded)
      differ(
        gateway,
        `${where} shows ${toDecimal(transaction.refunded_amount)} refunded, its refund operations ${toDecimal(refunded)}`,
      );
    if (refunded > transaction.captured_amount)
      differ(
        gateway,
        `${where} refunded ${toDecimal(refunded)}, more than the ${toDecimal(transaction.captured_amount)} captured`,
      );
    const fullyRefunded =
      (ownRefunds.get(transaction.id) ?? 0) >= transaction.captured_amount && transaction.captured_amount > 0;
    if (fullyRefunded !== (transaction.state === "refunded"))
      differ(
        gateway,
        `${where}: refunds ${toDecimal(ownRefunds.get(transaction.id) ?? 0)} of ${toDecimal(transaction.captured_amount)}, state ${transaction.state}`,
      );
  }
  // Refunds the reconciler settled: a request finishes within seconds, the reconciler's grace is 30 s.
  const late = { succeeded: 0, released: 0 };
  for (const operation of books.operations) {
    if (
      !operation.completed_at ||
      new Date(operation.completed_at).getTime() - new Date(operation.created_at).getTime() < 29_000
    )
      continue;
    if (operation.state === "succeeded") late.succeeded++;
    else if (operation.state === "failed") late.released++;
  }
  return { summary, differences, late };
}

export function printReport(engine, summary, differences) {
  const cell = ([count, sum]) => `${String(count).padStart(5)} ${toDecimal(sum).padStart(11)}`;
  const head = ["captured (gateway)", "recorded (platform)", "refunds (gateway)", "refunds (recorded)"];
  console.log(`\n${engine}: money at the gateways and in the platform's books (count, KWD)`);
  console.log(`${"".padEnd(8)}${head.map((h) => h.padStart(19)).join("  ")}`);
  for (const gateway of Object.keys(GATEWAYS)) {
    const s = summary[gateway];
    console.log(
      `${GATEWAYS[gateway].label.padEnd(8)}${[s.captured, s.recorded, s.refundedAtGateway, s.refundsRecorded].map((pair) => cell(pair).padStart(19)).join("  ")}`,
    );
  }
  console.log(`differences left: ${differences.length}`);
  for (const difference of differences) console.log(`  - ${difference}`);
}

export async function createPostgresDatabase(adminUrl) {
  const name = `chaos_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropPostgresDatabase(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

export async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
