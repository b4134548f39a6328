// Volume data for the transactions workspace, shared by `npm run seed:volume` and `npm run bench:transactions`.
// The app's own modules (migrations, demo seed, list and totals queries) are loaded through Vite's SSR
// loader, so the scripts run the real code; the rows themselves are written with the bare drivers
// (one prepared statement in big transactions on SQLite, `unnest` INSERTs of 2,000 rows on Postgres).
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import pg from "pg";
import { createServer } from "vite";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The app's TypeScript modules, through Vite (without the React Router plugin: only the server code is loaded). */
export async function loadApp() {
  const vite = await createServer({
    root,
    configFile: false,
    appType: "custom",
    logLevel: "error",
    server: { middlewareMode: true, hmr: false, ws: false },
    resolve: { tsconfigPaths: true },
    ssr: { external: ["better-sqlite3", "pg", "@node-rs/argon2", "nodemailer"] },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const load = (file) => vite.ssrLoadModule(file);
  return {
    database: await load("/app/db/database.server.ts"),
    migrate: await load("/app/db/migrate.server.ts"),
    seed: await load("/app/boot/demo-seed.server.ts"),
    money: await load("/app/lib/money.ts"),
    filters: await load("/app/domain/transactions/filters.ts"),
    list: await load("/app/domain/transactions/list.server.ts"),
    totals: await load("/app/domain/transactions/totals.server.ts"),
    load,
    close: () => vite.close(),
  };
}

/** Where the data goes: the flags, else the app's own defaults (DATABASE_URL, SQLITE_PATH, ./data/platform.sqlite). */
export function resolveTarget({ databaseUrl, sqlitePath } = {}) {
  if (databaseUrl) return { engine: "postgres", databaseUrl };
  if (sqlitePath) return { engine: "sqlite", sqlitePath: path.resolve(sqlitePath) };
  if (process.env.DATABASE_URL) return { engine: "postgres", databaseUrl: process.env.DATABASE_URL };
  return { engine: "sqlite", sqlitePath: path.resolve(process.env.SQLITE_PATH || "./data/platform.sqlite") };
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness: sfc32 seeded by a cyrb128 hash of a string.

function cyrb128(text) {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export function prng(seedText) {
  let [a, b, c, d] = cyrb128(String(seedText));
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  /** A picker over [value, weight] pairs. */
  const weighted = (pairs) => {
    const total = pairs.reduce((sum, [, weight]) => sum + weight, 0);
    const cumulative = [];
    let running = 0;
    for (const [value, weight] of pairs) cumulative.push([value, (running += weight / total)]);
    return () => {
      const r = next();
      for (const [value, bound] of cumulative) if (r < bound) return value;
      return cumulative[cumulative.length - 1][0];
    };
  };
  const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const publicId = () => {
    let id = "";
    for (let i = 0; i < 22; i++) id += ALPHABET[Math.floor(next() * 62)];
    return id;
  };
  const digits = (count) => {
    let text = String(int(1, 9));
    while (text.length < count) text += String(Math.floor(next() * 10));
    return text;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, int, pick, weighted, publicId, digits, normal };
}

// ---------------------------------------------------------------------------------------------
// What the rows look like.

const PLUGINS = [
  ["payment_request", 40],
  ["e_commerce", 17],
  ["customer_payment", 12],
  ["catalogue", 8],
  ["shopify", 8],
  ["food_ordering", 6],
  ["event", 5],
  ["bulk", 4],
];
const STATES = [
  ["paid", 46],
  ["created", 11],
  ["expired", 10],
  ["failed", 8],
  ["canceled", 6],
  ["attempted", 5.5],
  ["pending", 3],
  ["authorized", 2.5],
  ["cod", 3],
  ["refunded", 3],
  ["voided", 1],
  ["invalid", 1],
];
const DELETABLE = new Set(["created", "pending", "attempted", "failed", "canceled", "expired", "invalid"]);
/** Relative volume by Kuwait hour of day: quiet nights, a late-morning and an evening peak. */
const HOURS = [3, 1.5, 0.8, 0.4, 0.3, 0.4, 0.9, 2, 4, 6, 8, 9, 9, 8, 7, 7, 7.5, 8, 9, 10, 10.5, 9.5, 7.5, 5];
/**
 * Arabic spellings of the Arab names, several where people write them several ways (hamza or bare
 * alef, final ta marbuta or ha): about 40 % of the customers with an Arab name have it in Arabic
 * script (their e-mail keeps the Latin spelling).
 */
const ARABIC_NAMES = {
  Ahmad: ["أحمد", "احمد"],
  Mohammad: ["محمد", "مُحمّد"],
  Abdullah: ["عبدالله", "عبد الله"],
  Fahad: ["فهد"],
  Khaled: ["خالد"],
  Yousef: ["يوسف"],
  Ali: ["علي", "على"],
  Hamad: ["حمد"],
  Salem: ["سالم"],
  Nasser: ["ناصر"],
  Bader: ["بدر"],
  Faisal: ["فيصل"],
  Meshari: ["مشاري"],
  Talal: ["طلال"],
  Omar: ["عمر"],
  Hussain: ["حسين"],
  Jassim: ["جاسم"],
  Saud: ["سعود"],
  Ibrahim: ["إبراهيم", "ابراهيم"],
  Mubarak: ["مبارك"],
  Fatima: ["فاطمة", "فاطمه"],
  Noura: ["نورة", "نوره"],
  Maryam: ["مريم"],
  Sara: ["سارة", "ساره"],
  Dana: ["دانة", "دانه"],
  Hessa: ["حصة"],
  Lulwa: ["لولوة"],
  Shaikha: ["شيخة"],
  Reem: ["ريم"],
  Aisha: ["عائشة", "عايشه"],
  Latifa: ["لطيفة"],
  Dalal: ["دلال"],
  Ghadeer: ["غدير"],
  Haya: ["هيا"],
  Manar: ["منار"],
  Zainab: ["زينب"],
  Asma: ["أسماء", "اسماء"],
  Anwar: ["أنوار"],
  Rawan: ["روان"],
  Nada: ["ندى", "ندي"],
  Ahmed: ["أحمد"],
  Hassan: ["حسن"],
  Mansour: ["منصور"],
  "Al-Sabah": ["الصباح"],
  "Al-Ghanim": ["الغانم"],
  "Al-Mutairi": ["المطيري"],
  "Al-Azmi": ["العازمي"],
  "Al-Enezi": ["العنزي"],
  "Al-Rashidi": ["الرشيدي"],
  "Al-Ajmi": ["العجمي"],
  "Al-Hajri": ["الهاجري"],
  "Al-Shammari": ["الشمري"],
  "Al-Otaibi": ["العتيبي"],
  "Al-Kandari": ["الكندري"],
  "Al-Awadhi": ["العوضي"],
  Behbehani: ["بهبهاني"],
  "Al-Mulla": ["الملا"],
  "Al-Qattan": ["القطان"],
  "Al-Bahar": ["البحر"],
  "Al-Saleh": ["الصالح"],
  "Al-Fares": ["الفارس"],
  "Al-Khaled": ["الخالد"],
  Dashti: ["دشتي"],
  Ashkanani: ["أشكناني"],
  Hayat: ["حيات"],
  Marafi: ["معرفي"],
  "Al-Jassim": ["الجاسم"],
  "Al-Roumi": ["الرومي"],
  "Al-Shatti": ["الشطي"],
  Boodai: ["بودي"],
  "Al-Kharafi": ["الخرافي"],
  "Al-Sager": ["الصقر"],
  "Al-Duwaisan": ["الدويسان"],
  "Al-Hamad": ["الحمد"],
  "Al-Failakawi": ["الفيلكاوي"],
};
const FIRST_NAMES = [
  "Ahmad",
  "Mohammad",
  "Abdullah",
  "Fahad",
  "Khaled",
  "Yousef",
  "Ali",
  "Hamad",
  "Salem",
  "Nasser",
  "Bader",
  "Faisal",
  "Meshari",
  "Talal",
  "Omar",
  "Hussain",
  "Jassim",
  "Saud",
  "Ibrahim",
  "Mubarak",
  "Fatima",
  "Noura",
  "Maryam",
  "Sara",
  "Dana",
  "Hessa",
  "Lulwa",
  "Shaikha",
  "Reem",
  "Aisha",
  "Latifa",
  "Dalal",
  "Ghadeer",
  "Haya",
  "Manar",
  "Zainab",
  "Asma",
  "Anwar",
  "Rawan",
  "Nada",
  "John",
  "Priya",
  "Rahul",
  "Maria",
  "Joseph",
  "Anil",
  "Grace",
  "Ramesh",
  "Elena",
  "Ahmed",
];
const LAST_NAMES = [
  "Al-Sabah",
  "Al-Ghanim",
  "Al-Mutairi",
  "Al-Azmi",
  "Al-Enezi",
  "Al-Rashidi",
  "Al-Ajmi",
  "Al-Hajri",
  "Al-Shammari",
  "Al-Otaibi",
  "Al-Kandari",
  "Al-Awadhi",
  "Behbehani",
  "Al-Mulla",
  "Al-Qattan",
  "Al-Bahar",
  "Al-Saleh",
  "Al-Fares",
  "Al-Khaled",
  "Dashti",
  "Ashkanani",
  "Hayat",
  "Marafi",
  "Al-Jassim",
  "Al-Roumi",
  "Al-Shatti",
  "Boodai",
  "Al-Kharafi",
  "Al-Sager",
  "Al-Duwaisan",
  "Al-Hamad",
  "Al-Failakawi",
  "Kumar",
  "Fernandes",
  "Khan",
  "Santos",
  "Thomas",
  "Nair",
  "Hassan",
  "Mansour",
];
const DOMAINS = [
  ["gmail.com", 40],
  ["hotmail.com", 14],
  ["outlook.com", 9],
  ["yahoo.com", 7],
  ["icloud.com", 9],
  ["live.com", 4],
  ["kfh.com", 2],
  ["nbk.com", 2],
  ["zain.com", 2],
  ["ooredoo.com.kw", 2],
  ["kpc.com.kw", 2],
  ["gulfbank.com", 2],
  ["moe.edu.kw", 2],
  ["ku.edu.kw", 3],
];
const EVENTS = [
  "Kuwait Jazz Night",
  "Marina Run 10K",
  "Comedy Evening",
  "Science Club Workshop",
  "Ramadan Ghabga",
  "Padel Open",
];
const BRANCHES = ["Salmiya", "Hawalli", "Jabriya", "Kuwait City", "Fintas", "Jahra", "Mangaf", "Shuwaikh"];
const REQUEST_NOTES = [
  "Consultation fee",
  "Deposit",
  "Balance payment",
  "Monthly subscription",
  "Tuition installment",
  "Maintenance visit",
  "Custom order",
  "Annual membership",
];

/**
 * Inserts `count` transactions (with their payment attempts) for one merchant, newest at the end,
 * order numbers following the merchant's current maximum. Returns { inserted, attempts }.
 * `progress(done)` is called after every batch.
 */
export async function loadTransactions(target, { merchantId, count, seed, progress, now = Date.now() }) {
  const writer =
    target.engine === "sqlite" ? sqliteWriter(target.sqlitePath) : await postgresWriter(target.databaseUrl);
  try {
    const context = await writer.context(merchantId);
    const rows = rowMaker({ ...context, merchantId, count, now, seed: `${seed}:${merchantId}:${context.lastOrderNo}` });
    let made = 0,
      done = 0,
      attempts = 0;
    const batchSize = target.engine === "sqlite" ? 20_000 : 2_000;
    // Postgres: batches are made while the server writes earlier ones, on `writer.lanes` connections.
    // SQLite writes synchronously, one batch at a time.
    const writing = new Set();
    while (made < count) {
      const size = Math.min(batchSize, count - made);
      const transactions = [],
        paymentAttempts = [];
      for (let i = 0; i < size; i++) rows.next(transactions, paymentAttempts);
      made += size;
      while (writing.size >= writer.lanes) await Promise.race(writing);
      const write = writer.write(transactions, paymentAttempts).then(() => {
        writing.delete(write);
        done += size;
        attempts += paymentAttempts.length;
        progress?.(done);
      });
      writing.add(write);
    }
    await Promise.all(writing);
    return { inserted: done, attempts };
  } finally {
    await writer.close();
  }
}

/** The row generator: timestamps drawn up front and sorted, so order numbers follow creation time. */
function rowMaker({
  merchantId,
  count,
  now,
  seed,
  lastOrderNo,
  lastBulkId,
  unitId,
  initiators,
  gateways,
  priceWithFee,
}) {
  const r = prng(seed);
  const plugin = r.weighted(PLUGINS);
  const state = r.weighted(STATES);
  const domain = r.weighted(DOMAINS);
  // Dates from a stream of their own: the rows' draws do not depend on the clock.
  const rt = prng(`${seed}:dates`);
  const hour = rt.weighted(HOURS.map((weight, index) => [index, weight]));

  // created_at: the last two years by Kuwait day, recent days busier (density rising linearly from
  // 0.4 to 1.4: the inverse of its distribution function), then by Kuwait hour of day.
  const days = 730;
  const todayKuwait = Math.floor((now + 3 * 3600_000) / 86_400_000);
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let instant;
    do {
      const x = Math.sqrt(0.16 + 1.8 * rt.next()) - 0.4;
      const day = todayKuwait - days + 1 + Math.min(days - 1, Math.floor(x * days));
      instant = day * 86_400_000 - 3 * 3600_000 + hour() * 3600_000 + Math.floor(rt.next() * 3600_000);
    } while (instant > now - 60_000);
    times[i] = instant;
  }
  times.sort();

  const kwd = gateways.filter((gateway) => gateway.currencies.split(",").includes("KWD"));
  const usd = gateways.filter((gateway) => gateway.currencies.split(",").includes("USD"));
  const online = (list) => list.filter((gateway) => gateway.kind !== "cod");
  let index = 0,
    bulkId = lastBulkId,
    bulkLeft = 0;
  const iso = (ms) => new Date(ms).toISOString();

  function amountOf(currency) {
    // Log-normal around 18 KWD (or 60 USD), clamped to 1.000–500.000 KWD / 1.00–1,500.00 USD, rounded the way prices are.
    if (currency === "USD") {
      const value = Math.min(1500, Math.max(1, Math.exp(Math.log(60) + 1.0 * r.normal())));
      const cents = r.next() < 0.6 ? Math.round(value) * 100 : Math.round(value * 100);
      return Math.max(100, cents);
    }
    const value = Math.min(500, Math.max(1, Math.exp(Math.log(18) + 1.05 * r.normal())));
    const roll = r.next();
    const fils =
      roll < 0.45 ? Math.round(value) * 1000 : roll < 0.8 ? Math.round(value * 4) * 250 : Math.round(value * 200) * 5;
    return Math.min(500_000, Math.max(1000, fils));
  }

  function description(section, orderNo) {
    switch (section) {
      case "payment_request":
        return r.next() < 0.5
          ? `Invoice INV-${new Date(times[index]).getUTCFullYear()}-${String(orderNo).padStart(6, "0")}`
          : r.pick(REQUEST_NOTES);
      case "e_commerce":
        return `Web order #W${100000 + orderNo}`;
      case "shopify":
        return `Shopify order #${1000 + Math.floor(orderNo / 3)}`;
      case "catalogue":
        return `Catalogue order: ${r.int(1, 6)} items`;
      case "event":
        return `${r.pick(EVENTS)} × ${r.int(1, 4)}`;
      case "food_ordering":
        return `Delivery from ${r.pick(BRANCHES)} branch`;
      case "bulk":
        return `Bulk request ${bulkId}`;
      default:
        return r.next() < 0.3 ? "Customer payment" : null;
    }
  }

  return {
    next(transactions, paymentAttempts) {
      const createdMs = times[index];
      const orderNo = lastOrderNo + index + 1;
      const section = plugin();
      const currency = usd.length && r.next() < 0.1 ? "USD" : "KWD";
      const choices = currency === "USD" ? usd : kwd;
      let st = state();
      if (st === "cod" && !choices.some((gateway) => gateway.kind === "cod")) st = "paid";
      const amount = amountOf(currency);
      const first = r.pick(FIRST_NAMES),
        last = r.pick(LAST_NAMES);
      const arabic = ARABIC_NAMES[first] && ARABIC_NAMES[last] && r.next() < 0.4;
      const shownFirst = arabic ? r.pick(ARABIC_NAMES[first]) : first,
        shownLast = arabic ? r.pick(ARABIC_NAMES[last]) : last;
      let email = null;
      if (r.next() < 0.85) {
        const f = first.toLowerCase(),
          l = last.toLowerCase().replace(/^al-/, "al").replace(/-/g, "");
        const style = r.int(0, 3);
        const local =
          style === 0
            ? `${f}.${l}`
            : style === 1
              ? `${f}${l}${r.int(1, 999)}`
              : style === 2
                ? `${f[0]}${l}`
                : `${f}_${r.int(70, 2009)}`;
        email = `${local}@${domain()}`;
        if (r.next() < 0.15) email = email[0].toUpperCase() + email.slice(1);
      }
      const phone = r.next() < 0.9 ? `+965${r.pick(["5", "6", "9"])}${r.digits(7).slice(0, 7)}` : null;
      if (section === "bulk" && bulkLeft-- <= 0) {
        bulkId++;
        bulkLeft = r.int(20, 300);
      }

      // What happened after creation.
      const elapsed = now - createdMs;
      let changedMs = createdMs,
        expirationMs = null;
      const settleDelay = Math.min(elapsed - 1000, 20_000 + Math.floor(-Math.log(1 - r.next()) * 1_800_000));
      if (st === "expired") {
        expirationMs = createdMs + r.int(1, 7) * 86_400_000;
        if (expirationMs >= now) st = "created";
        else changedMs = expirationMs;
      } else if (st !== "created" && st !== "invalid") {
        changedMs = createdMs + Math.max(1000, settleDelay);
      }
      if ((st === "created" || st === "pending") && expirationMs === null && r.next() < 0.3)
        expirationMs = createdMs + r.int(1, 14) * 86_400_000;
      let paidMs = changedMs;
      if (st === "refunded" || st === "voided") {
        // Given back some days after the payment.
        const later = paidMs + r.int(1, 20) * 86_400_000 + r.int(0, 86_400_000);
        changedMs = Math.min(later, now - 1000);
        if (changedMs <= paidMs) paidMs = Math.max(createdMs, changedMs - 1000);
      }

      const pgCodes =
        currency === "USD"
          ? choices
          : r.next() < 0.7
            ? choices
            : choices.filter((gateway) => r.next() < 0.6 || gateway.kind === "knet");
      const pgCodeText = (pgCodes.length ? pgCodes : choices).map((gateway) => gateway.code).join(",");
      const id = r.publicId();
      let paidAmount = 0,
        fee = 0,
        captured = 0,
        refunded = 0,
        voided = 0,
        gatewayCode = null,
        paidAttemptId = null;

      const attempt = (gateway, attemptState, settledMs, extra = {}) => {
        const price = priceWithFee(
          amount,
          { fixed: gateway.fee_fixed, basisPoints: gateway.fee_basis_points },
          gateway.fee_payer,
        );
        const knet = gateway.kind === "knet";
        const success = attemptState === "success";
        const cardId = gateway.kind === "mpgs" ? `SESSION0002${r.digits(18)}` : null;
        const row = {
          id: r.publicId(),
          transaction_id: id,
          merchant_id: merchantId,
          gateway_code: gateway.code,
          gateway_kind: gateway.kind,
          state: attemptState,
          amount,
          fee: price.fee,
          total: price.gross,
          fee_payer: gateway.fee_payer,
          currency_code: currency,
          track_id: r.digits(18),
          submission_token: r.publicId(),
          lang: r.next() < 0.35 ? "ar" : "en",
          gateway_reference: cardId,
          payment_id: knet ? r.digits(18) : null,
          tran_id: knet && success ? r.digits(15) : null,
          auth_code: success && gateway.kind !== "cod" ? r.digits(6) : null,
          reference_id: knet && attemptState !== "cod" ? r.digits(12) : null,
          post_date:
            knet && success ? new Date(settledMs + 3 * 3600_000).toISOString().slice(5, 10).replace("-", "") : null,
          result_code: knet
            ? success
              ? "CAPTURED"
              : attemptState === "canceled"
                ? "CANCELED"
                : "NOT CAPTURED"
            : success
              ? "captured"
              : attemptState === "cod"
                ? null
                : "declined",
          authorized_only: 0,
          created_at: iso(settledMs - r.int(15_000, 240_000)),
          completed_at: iso(settledMs),
          ...extra,
        };
        paymentAttempts.push(row);
        return { row, price };
      };

      if (st === "paid" || st === "authorized" || st === "refunded" || st === "voided") {
        const eligible = online(pgCodes.length ? pgCodes : choices);
        const gateway =
          st === "authorized" || st === "voided"
            ? (eligible.find((g) => g.kind === "mpgs") ?? eligible[0] ?? choices[0])
            : r.pick(eligible.length ? eligible : choices);
        const authorizedOnly = st === "authorized" || st === "voided";
        const { row, price } = attempt(
          gateway,
          "success",
          paidMs,
          authorizedOnly
            ? { authorized_only: 1, result_code: gateway.kind === "knet" ? "APPROVED" : "authorized" }
            : {},
        );
        paidAmount = price.gross;
        fee = price.fee;
        gatewayCode = gateway.code;
        paidAttemptId = row.id;
        if (!authorizedOnly) captured = price.gross;
        if (st === "refunded") refunded = captured;
        if (st === "voided") voided = price.gross;
        // A few paid ones had part of the money given back and stay paid.
        if (st === "paid" && r.next() < 0.03) refunded = Math.max(1, Math.round((captured * r.int(10, 60)) / 100));
      } else if (st === "cod") {
        const gateway = choices.find((g) => g.kind === "cod");
        const { row, price } = attempt(gateway, "cod", changedMs);
        fee = price.fee;
        gatewayCode = gateway.code;
        paidAttemptId = row.id;
      } else if (st === "failed" || st === "attempted" || st === "canceled") {
        const eligible = online(pgCodes.length ? pgCodes : choices);
        if (eligible.length && (st !== "canceled" || r.next() < 0.5)) {
          attempt(r.pick(eligible), st === "canceled" ? "canceled" : "failed", changedMs);
        }
      }

      const deleted =
        DELETABLE.has(st) && r.next() < 0.04
          ? iso(Math.min(now - 1000, changedMs + r.int(60_000, 30 * 86_400_000)))
          : null;
      const recent = elapsed < 3 * 86_400_000;
      const initiated = section === "payment_request" || section === "bulk";
      transactions.push({
        id,
        merchant_id: merchantId,
        unit_id: unitId,
        plugin: section,
        order_no: orderNo,
        state: st,
        amount,
        currency_code: currency,
        editable_amount: section === "customer_payment" ? 1 : 0,
        customer_email: email,
        customer_phone: phone,
        customer_first_name: r.next() < 0.92 ? shownFirst : null,
        customer_last_name: r.next() < 0.85 ? shownLast : null,
        description: description(section, orderNo),
        remarks: r.next() < 0.08 ? "Call before delivery" : null,
        pg_codes: pgCodeText,
        expiration_time: expirationMs === null ? null : iso(expirationMs),
        initiator_user_id: initiated && initiators.length ? r.pick(initiators) : null,
        paid_amount: paidAmount,
        fee,
        captured_amount: captured,
        refunded_amount: refunded,
        voided_amount: voided,
        gateway_code: gatewayCode,
        paid_attempt_id: paidAttemptId,
        send_email: initiated && email && r.next() < 0.5 ? 1 : 0,
        send_sms: initiated && phone && r.next() < 0.3 ? 1 : 0,
        created_at: iso(createdMs),
        state_changed_at: iso(changedMs),
        deleted_at: deleted,
        seen: recent ? (r.next() < 0.4 ? 1 : 0) : r.next() < 0.97 ? 1 : 0,
        email_seen: email && st === "paid" && r.next() < 0.6 ? 1 : 0,
        product_type:
          section === "event"
            ? "ticket"
            : section === "food_ordering"
              ? "food"
              : section === "catalogue" || section === "e_commerce" || section === "shopify"
                ? r.next() < 0.85
                  ? "physical"
                  : "digital"
                : null,
        bulk_id: section === "bulk" ? bulkId : null,
        customer_email_lc: email ? email.toLowerCase() : null,
      });
      index++;
    },
  };
}

const TRANSACTION_COLUMNS = [
  ["id", "text"],
  ["merchant_id", "int"],
  ["unit_id", "int"],
  ["plugin", "text"],
  ["order_no", "int"],
  ["state", "text"],
  ["amount", "bigint"],
  ["currency_code", "text"],
  ["editable_amount", "int"],
  ["customer_email", "text"],
  ["customer_phone", "text"],
  ["customer_first_name", "text"],
  ["customer_last_name", "text"],
  ["description", "text"],
  ["remarks", "text"],
  ["pg_codes", "text"],
  ["expiration_time", "timestamptz"],
  ["initiator_user_id", "int"],
  ["paid_amount", "bigint"],
  ["fee", "bigint"],
  ["captured_amount", "bigint"],
  ["refunded_amount", "bigint"],
  ["voided_amount", "bigint"],
  ["gateway_code", "text"],
  ["paid_attempt_id", "text"],
  ["send_email", "int"],
  ["send_sms", "int"],
  ["created_at", "timestamptz"],
  ["state_changed_at", "timestamptz"],
  ["deleted_at", "timestamptz"],
  ["seen", "int"],
  ["email_seen", "int"],
  ["product_type", "text"],
  ["bulk_id", "int"],
  ["customer_email_lc", "text"],
];
const ATTEMPT_COLUMNS = [
  ["id", "text"],
  ["transaction_id", "text"],
  ["merchant_id", "int"],
  ["gateway_code", "text"],
  ["gateway_kind", "text"],
  ["state", "text"],
  ["amount", "bigint"],
  ["fee", "bigint"],
  ["total", "bigint"],
  ["fee_payer", "text"],
  ["currency_code", "text"],
  ["track_id", "text"],
  ["submission_token", "text"],
  ["lang", "text"],
  ["gateway_reference", "text"],
  ["payment_id", "text"],
  ["tran_id", "text"],
  ["auth_code", "text"],
  ["reference_id", "text"],
  ["post_date", "text"],
  ["result_code", "text"],
  ["authorized_only", "int"],
  ["created_at", "timestamptz"],
  ["completed_at", "timestamptz"],
];

const CONTEXT_SQL = {
  lastOrderNo: "select coalesce(max(order_no), 0) as value from transactions where merchant_id = $1",
  lastBulkId: "select coalesce(max(bulk_id), 0) as value from transactions where merchant_id = $1",
  unit: "select id from units where merchant_id = $1 order by is_default desc, id limit 1",
  initiators: "select id from users where merchant_id = $1 and is_active = 1 order by id",
  gateways:
    "select code, kind, currencies, fee_fixed, fee_basis_points, fee_payer from gateways where merchant_id = $1 and enabled = 1 order by sort_order, id",
};

/** Cash on delivery and the two sandboxes, as the demo merchant has them, when a merchant has no gateway. */
const FALLBACK_GATEWAYS = [
  { code: "knet-sandbox", kind: "knet", currencies: "KWD", fee_fixed: 0, fee_basis_points: 0, fee_payer: "merchant" },
  {
    code: "mpgs-sandbox",
    kind: "mpgs",
    currencies: "KWD,USD",
    fee_fixed: 100,
    fee_basis_points: 200,
    fee_payer: "customer",
  },
  { code: "cod", kind: "cod", currencies: "KWD", fee_fixed: 0, fee_basis_points: 0, fee_payer: "merchant" },
];

let priceWithFee;
/** The fee rule of the app (lib/money), set once the app is loaded. */
export function setPricing(fn) {
  priceWithFee = fn;
}

function makeContext(values) {
  if (!priceWithFee) throw new Error("setPricing(money.priceWithFee) first");
  const gateways = values.gateways.length
    ? values.gateways.map((g) => ({ ...g, fee_fixed: Number(g.fee_fixed) }))
    : FALLBACK_GATEWAYS;
  if (!gateways.some((g) => g.currencies.split(",").includes("KWD")))
    throw new Error("the merchant has no KWD gateway");
  return { ...values, gateways, priceWithFee };
}

function sqliteWriter(file) {
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  const insert = (table, columns) => {
    const names = columns.map(([name]) => name);
    return db.prepare(
      `insert into ${table} (${names.join(", ")}) values (${names.map((name) => `@${name}`).join(", ")})`,
    );
  };
  const transactionInsert = insert("transactions", TRANSACTION_COLUMNS);
  const attemptInsert = insert("payment_attempts", ATTEMPT_COLUMNS);
  const write = db.transaction((transactions, attempts) => {
    for (const row of transactions) transactionInsert.run(row);
    for (const row of attempts) attemptInsert.run(row);
  });
  const q = (text) => db.prepare(text.replace(/\$1/g, "?"));
  return {
    lanes: 1,
    async context(merchantId) {
      return makeContext({
        lastOrderNo: q(CONTEXT_SQL.lastOrderNo).get(merchantId).value,
        lastBulkId: q(CONTEXT_SQL.lastBulkId).get(merchantId).value,
        unitId: q(CONTEXT_SQL.unit).get(merchantId)?.id ?? null,
        initiators: q(CONTEXT_SQL.initiators)
          .all(merchantId)
          .map((row) => row.id),
        gateways: q(CONTEXT_SQL.gateways).all(merchantId),
      });
    },
    async write(transactions, attempts) {
      write(transactions, attempts);
    },
    async close() {
      db.pragma("synchronous = NORMAL");
      db.close();
    },
  };
}

async function postgresWriter(databaseUrl, lanes = 2) {
  const clients = [];
  for (let i = 0; i < lanes; i++) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("set synchronous_commit = off");
    clients.push(client);
  }
  const idle = [...clients];
  const client = clients[0];
  const unnestInsert = (table, columns) => {
    const names = columns.map(([name]) => name);
    const arrays = columns.map(([, type], index) => `$${index + 1}::${type}[]`);
    return {
      text: `insert into ${table} (${names.join(", ")}) select * from unnest(${arrays.join(", ")})`,
      values: (rows) => names.map((name) => rows.map((row) => row[name])),
    };
  };
  const transactionInsert = unnestInsert("transactions", TRANSACTION_COLUMNS);
  const attemptInsert = unnestInsert("payment_attempts", ATTEMPT_COLUMNS);
  const one = async (text, merchantId) => (await client.query(text, [merchantId])).rows;
  return {
    async context(merchantId) {
      return makeContext({
        lastOrderNo: Number((await one(CONTEXT_SQL.lastOrderNo, merchantId))[0].value),
        lastBulkId: Number((await one(CONTEXT_SQL.lastBulkId, merchantId))[0].value),
        unitId: (await one(CONTEXT_SQL.unit, merchantId))[0]?.id ?? null,
        initiators: (await one(CONTEXT_SQL.initiators, merchantId)).map((row) => row.id),
        gateways: await one(CONTEXT_SQL.gateways, merchantId),
      });
    },
    lanes,
    async write(transactions, attempts) {
      const lane = idle.pop();
      try {
        await lane.query("begin");
        await lane.query(transactionInsert.text, transactionInsert.values(transactions));
        if (attempts.length) await lane.query(attemptInsert.text, attemptInsert.values(attempts));
        await lane.query("commit");
      } catch (error) {
        await lane.query("rollback").catch(() => {});
        throw error;
      } finally {
        idle.push(lane);
      }
    },
    async close() {
      await Promise.all(clients.map((each) => each.end()));
    },
  };
}

/**
 * Rebuilds one merchant's `transaction_totals` from its rows, as the backfill of migration 0003
 * does (generated and deleted by the Kuwait day of created_at, received by the Kuwait day of
 * state_changed_at from captured_amount), plus the refunded amounts.
 */
export async function rebuildTotals(target, merchantId) {
  const postgres = target.engine === "postgres";
  const day = (column) =>
    postgres ? `to_char(${column} at time zone 'Asia/Kuwait', 'YYYY-MM-DD')` : `date(${column}, '+3 hours')`;
  const statements = [
    `delete from transaction_totals where merchant_id = $1`,
    `insert into transaction_totals (merchant_id, plugin, currency_code, day, generated_count, generated_amount, deleted_count, deleted_amount)
     select merchant_id, plugin, currency_code, ${day("created_at")}, count(*), sum(amount),
       sum(case when deleted_at is null then 0 else 1 end), sum(case when deleted_at is null then 0 else amount end)
     from transactions where merchant_id = $1 group by merchant_id, plugin, currency_code, ${day("created_at")}`,
    `insert into transaction_totals (merchant_id, plugin, currency_code, day, received_count, received_amount)
     select merchant_id, plugin, currency_code, ${day("state_changed_at")}, count(*), sum(captured_amount)
     from transactions where merchant_id = $1 and captured_amount > 0 group by merchant_id, plugin, currency_code, ${day("state_changed_at")}
     on conflict (merchant_id, plugin, currency_code, day) do update set
       received_count = excluded.received_count, received_amount = excluded.received_amount`,
    `insert into transaction_totals (merchant_id, plugin, currency_code, day, refunded_amount)
     select merchant_id, plugin, currency_code, ${day("state_changed_at")}, sum(refunded_amount)
     from transactions where merchant_id = $1 and refunded_amount > 0 group by merchant_id, plugin, currency_code, ${day("state_changed_at")}
     on conflict (merchant_id, plugin, currency_code, day) do update set refunded_amount = excluded.refunded_amount`,
  ];
  if (postgres) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      await client.query("begin");
      for (const text of statements) await client.query(text, [merchantId]);
      await client.query("commit");
    } finally {
      await client.end();
    }
    return;
  }
  const db = new SQLite(target.sqlitePath);
  try {
    db.pragma("busy_timeout = 5000");
    db.transaction(() => {
      for (const text of statements) db.prepare(text.replace(/\$1/g, "?")).run(merchantId);
    })();
  } finally {
    db.close();
  }
}

/** ANALYZE; on Postgres VACUUM ANALYZE, as autovacuum would after a bulk insert (index-only scans need its visibility map). */
export async function analyze(target) {
  if (target.engine === "postgres") {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      await client.query("vacuum analyze");
    } finally {
      await client.end();
    }
    return;
  }
  const db = new SQLite(target.sqlitePath);
  try {
    db.pragma("busy_timeout = 5000");
    db.exec("analyze");
  } finally {
    db.close();
  }
}

const STATISTICS_ROLLUP = "app/domain/payments/statistics-rollup.server.ts";

/**
 * The whole seed: migrations and (when the database is empty) the demo merchant through the app's
 * code, then the rows, the totals and ANALYZE. `merchant`: an id or a name; default "Demo Store".
 */
export async function seedVolume(app, target, { transactions, merchant, seed = "1", log = console.log }) {
  const started = performance.now();
  if (target.engine === "sqlite") fs.mkdirSync(path.dirname(target.sqlitePath), { recursive: true });
  const db = app.database.createDatabase(
    target.engine === "postgres" ? { databaseUrl: target.databaseUrl, poolSize: 2 } : { sqlitePath: target.sqlitePath },
  );
  let merchantRow;
  try {
    await app.migrate.migrateToLatest(db);
    if (merchant === undefined) await app.seed.seedDemoMerchantIfEmpty(db);
    const wanted = merchant ?? "Demo Store";
    let query = db.selectFrom("merchants").select(["id", "name"]);
    query = /^\d+$/.test(String(wanted))
      ? query.where("id", "=", Number(wanted))
      : query.where("name", "=", String(wanted));
    merchantRow = await query.orderBy("id").executeTakeFirst();
  } finally {
    await db.destroy();
  }
  if (!merchantRow) throw new Error(`no merchant ${JSON.stringify(merchant ?? "Demo Store")} in this database`);
  setPricing(app.money.priceWithFee);
  log(
    `Seeding ${transactions.toLocaleString("en")} transactions for merchant ${merchantRow.id} (${merchantRow.name}) on ${target.engine === "postgres" ? redact(target.databaseUrl) : target.sqlitePath}, seed ${seed}`,
  );
  let lastReport = performance.now();
  const loaded = await loadTransactions(target, {
    merchantId: merchantRow.id,
    count: transactions,
    seed,
    progress: (done) => {
      const at = performance.now();
      if (at - lastReport > 5000 || done === transactions) {
        lastReport = at;
        const seconds = (at - started) / 1000;
        log(
          `  ${done.toLocaleString("en")} rows, ${seconds.toFixed(1)} s (${Math.round(done / seconds).toLocaleString("en")} rows/s)`,
        );
      }
    },
  });
  const totalsStarted = performance.now();
  await rebuildTotals(target, merchantRow.id);
  // The statistics home's rollup, when the app has one: rebuilt by its own code.
  let rollup = "";
  if (fs.existsSync(path.join(root, STATISTICS_ROLLUP))) {
    const rollupDb = app.database.createDatabase(
      target.engine === "postgres"
        ? { databaseUrl: target.databaseUrl, poolSize: 1 }
        : { sqlitePath: target.sqlitePath },
    );
    try {
      const { rebuildStatisticsRollup } = await app.load(`/${STATISTICS_ROLLUP}`);
      await rebuildStatisticsRollup(rollupDb, merchantRow.id);
      rollup = ", statistics rollup";
    } catch (error) {
      log(`  warning: the statistics rollup was not rebuilt: ${error instanceof Error ? error.message : error}`);
    } finally {
      await rollupDb.destroy();
    }
  }
  await analyze(target);
  const seconds = (performance.now() - started) / 1000;
  log(
    `  ${loaded.attempts.toLocaleString("en")} payment attempts; totals${rollup} and ANALYZE in ${((performance.now() - totalsStarted) / 1000).toFixed(1)} s`,
  );
  log(`Done in ${seconds.toFixed(1)} s`);
  return { merchantId: merchantRow.id, seconds, ...loaded };
}

export function redact(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
