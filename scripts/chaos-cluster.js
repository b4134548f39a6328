// `npm run chaos:cluster`: proves that the platform runs as several instances on one Postgres and one
// object storage, and that losing an instance loses nothing. On loopback it starts an S3-compatible
// server (s3rver), a scratch Postgres database (migrated once, by `npm run migrate`), two web
// instances (`node server.js --role web`) and a worker (`--role worker`), and a round-robin proxy in
// front of the web instances, as a load balancer would be (BASE_URL names it). Then, at once:
// customers pay payment links (KNET and card sandboxes), staff refund paid ones and export reports
// through the merchant API, and staff hold the live channel open (Server-Sent Events, reconnecting
// with Last-Event-ID whenever it drops). Meanwhile web instance B and the worker are killed with
// SIGKILL together (--rounds times) and started again.
//
// Once everything has settled, it prints, reading the database:
//  - payments and refunds at the gateways (their own books) against what the platform recorded;
//  - the jobs: none left behind or given up, and every report made once (one file, one notice, one
//    audit entry), however many times its job was taken again after a worker died;
//  - the live messages each channel received against those written for its user: none lost across
//    the restarts, none repeated;
//  - every report downloaded from instance A and from instance B: the same bytes, from the bucket.
// Exit code 1 on any difference, or when a step of the run fails; 2 when no Postgres answers.
// Flags: --rounds <n> (3), --customers <n> (4), --staff <n> (2), --readers <n> (3), --settle <s> (180),
// --seed <n> (random), --keep (keep the database, the bucket's folder and the logs).
// Postgres: TEST_POSTGRES_URL, else postgres://postgres@127.0.0.1:5432/test (an admin connection, to
// make the scratch database with).
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import S3rver from "s3rver";
import { ensureBuild } from "./ensure-build.js";
import {
  Abandoned,
  DEFAULT_ADMIN_URL,
  Merchant,
  Server,
  backlog,
  between,
  chance,
  compare,
  createPostgresDatabase,
  customerFlow,
  dropPostgresDatabase,
  freePort,
  openReader,
  persist,
  postgresReachable,
  printReport,
  readBooks,
  setSeed,
  sleep,
  staffRefund,
} from "./lib/chaos.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUCKET = "pay-files";

// --- The load balancer ---------------------------------------------------------------------------

/**
 * A round-robin proxy on loopback in front of the web instances. Like a load balancer, it sends a
 * request to the next instance and, when that instance refuses the connection (it is down), to the
 * other; a request an instance dies in the middle of is answered 502, never sent twice. Answers
 * stream through as they come (the live channel).
 */
async function startProxy(backends) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  let next = 0;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    try {
      for await (const chunk of req) chunks.push(chunk);
    } catch {
      return res.destroy();
    }
    const body = Buffer.concat(chunks);
    const start = next++;
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[(start + i) % backends.length];
      const outcome = await new Promise((resolve) => {
        const upstream = http.request(
          {
            host: "127.0.0.1",
            port: backend.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, "x-forwarded-for": "127.0.0.1" },
            agent,
          },
          (answer) => {
            backend.served++;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on("error", () => res.destroy());
            resolve("answered");
          },
        );
        upstream.on("error", (error) => {
          if (res.headersSent) {
            res.destroy();
            resolve("answered");
          } else resolve(error.code === "ECONNREFUSED" ? "refused" : "failed");
        });
        res.on("close", () => !res.writableFinished && upstream.destroy());
        upstream.end(body);
      });
      if (outcome === "answered") return;
      if (outcome === "failed") break;
    }
    if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" }).end("Bad gateway");
  });
  server.keepAliveTimeout = 65_000;
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
        agent.destroy();
      }),
  };
}

// --- The live channel, as a dashboard tab holds it ------------------------------------------------

/**
 * One staff member's live channel through the proxy for the whole run: every message's id is kept.
 * When the channel drops (its instance killed) it connects again, as EventSource does, with the last
 * event id it had; every few seconds it is closed and opened again with that id too, as a dashboard
 * page that moves on does, so that channels land on either instance and are on B when B is killed.
 */
class LiveListener {
  constructor(base, merchant, floor) {
    this.base = base;
    this.merchant = merchant;
    this.position = String(floor);
    this.received = [];
    this.connections = 0;
    this.cut = 0;
    this.refusals = [];
    this.stopped = false;
    this.controller = null;
  }

  async run() {
    while (!this.stopped) {
      try {
        if (!this.merchant.token) await this.merchant.signIn();
        const controller = (this.controller = new AbortController());
        const moveOn = setTimeout(() => controller.abort(), between(2000, 6000));
        const response = await fetch(`${this.base}/api/v1/notifications/live`, {
          headers: {
            Authorization: `Bearer ${this.merchant.token}`,
            Accept: "text/event-stream",
            "Last-Event-ID": this.position,
          },
          signal: this.controller.signal,
        });
        if (response.status === 401) {
          this.merchant.token = null;
          continue;
        }
        if (response.status !== 200) {
          if (response.status < 500) this.refusals.push(`HTTP ${response.status}`);
          await response.body?.cancel();
        } else {
          this.connections++;
          await this.read(response.body).catch(() => undefined);
          // Ended without being closed here: its instance went away under it.
          if (!controller.signal.aborted) this.cut++;
        }
        clearTimeout(moveOn);
      } catch {
        // The proxy had no instance to offer: connect again.
      }
      if (!this.stopped) await sleep(between(300, 1000));
    }
  }

  async read(stream) {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id = null;
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        // The position moves only with a whole message, as EventSource's does.
        if (data) this.received.push(JSON.parse(data).id);
        if (id !== null) this.position = id;
      }
    }
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }
}

// --- Staff exporting -------------------------------------------------------------------------------

/** A member of staff asking for an export of the payment requests, in English or Arabic, CSV or Excel. */
async function staffExport(ctx) {
  const { merchant, stats } = ctx;
  await sleep(between(1500, 3500));
  const query = `file_format=${chance(0.5) ? "csv" : "xls"}&export_type=default&language=${chance(0.5) ? "en" : "ar"}`;
  const answer = await persist(
    "export",
    stats,
    () => merchant.api(`/api/v1/plugins/payment_request/transaction/export?${query}`),
    (a) => {
      if (a.status === 201) return true;
      throw new Abandoned(`export [HTTP ${a.status}]: ${a.text.slice(0, 200)}`);
    },
  );
  stats.exports++;
  ctx.reports.add(JSON.parse(answer.text).id);
  return "export asked";
}

// --- Checking what happened --------------------------------------------------------------------------

/** Jobs and reports: what is left, what was given up, what was made more than once. */
async function checkJobs(reader, since) {
  const differences = [];
  const jobs = await reader.all(
    "select id, type, status, attempts, max_attempts, last_error from jobs where created_at >= ?",
    [since],
  );
  const byStatus = {};
  for (const job of jobs) byStatus[job.status] = (byStatus[job.status] ?? 0) + 1;
  // A scheduled run (one attempt) cut by a kill is not run again: the schedule's next run does its work.
  const redone = [];
  for (const job of jobs.filter((j) => j.status === "failed")) {
    const scheduled = Number(job.max_attempts) === 1 && job.last_error === "Its worker stopped while running it";
    const next =
      scheduled &&
      jobs.find((later) => later.type === job.type && later.status === "done" && Number(later.id) > Number(job.id));
    if (next) redone.push(`${job.type} run ${job.id} cut by a kill, its work done by the next run ${next.id}`);
    else differences.push(`job ${job.id} (${job.type}) was given up after ${job.attempts} attempts: ${job.last_error}`);
  }
  const left = jobs.filter((j) => j.status === "running");
  if (left.length)
    differences.push(
      `${left.length} jobs still running at the end: ${left.map((j) => `${j.id} (${j.type})`).join(", ")}`,
    );
  const again = jobs.filter((j) => j.status === "done" && Number(j.attempts) > 1);

  const reports = await reader.all(
    "select id, state, file_path, file_name, file_size from reports where created_at >= ?",
    [since],
  );
  const audits = await reader.all(
    "select object_id, count(*) as n from audit_log where object_type = 'report' and action = 'export_finished' and created_at >= ? group by object_id",
    [since],
  );
  const notices = await reader.all(
    "select link, count(*) as n from notifications where kind = 'report_exported' and created_at >= ? group by link",
    [since],
  );
  const auditsOf = new Map(audits.map((row) => [String(row.object_id), Number(row.n)]));
  const noticesOf = new Map(notices.map((row) => [/[?&]id=(\d+)/.exec(row.link ?? "")?.[1], Number(row.n)]));
  for (const report of reports) {
    if (report.state !== "done") {
      differences.push(`report ${report.id} is ${report.state}`);
      continue;
    }
    const audited = auditsOf.get(String(report.id)) ?? 0;
    const told = noticesOf.get(String(report.id)) ?? 0;
    if (audited !== 1) differences.push(`report ${report.id} has ${audited} 'export finished' audit entries`);
    if (told !== 1) differences.push(`report ${report.id} was told ${told} times`);
  }
  return { differences, byStatus, again, redone, reports, jobs: jobs.length };
}

/** What each live channel received against the messages written for its user since it opened. */
async function checkLive(reader, listeners, { userId, merchantId, floor }) {
  const rows = await reader.all(
    "select id from live_messages where merchant_id = ? and (user_id is null or user_id = ?) and type != 'session_ended' and id > ? order by id",
    [merchantId, userId, floor],
  );
  const expected = rows.map((row) => Number(row.id));
  return listeners.map((listener) => {
    const got = new Set(listener.received);
    return {
      connections: listener.connections,
      cut: listener.cut,
      received: listener.received.length,
      expected: expected.length,
      lost: expected.filter((id) => !got.has(id)),
      repeated: listener.received.length - got.size,
      unexpected: [...got].filter((id) => !expected.includes(id)),
      refusals: listener.refusals,
    };
  });
}

/** Every finished report from both instances directly: 200, the same bytes, as big as recorded. */
async function checkDownloads(reports, instances, token) {
  const differences = [];
  let bytes = 0;
  for (const report of reports.filter((r) => r.state === "done")) {
    const digests = [];
    for (const instance of instances) {
      const response = await fetch(
        `${instance.base}/api/v1/plugins/payment_request/transaction/export?id=${report.id}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200)
        differences.push(`report ${report.id} from ${instance.name}: HTTP ${response.status}`);
      else if (body.length !== Number(report.file_size))
        differences.push(
          `report ${report.id} from ${instance.name}: ${body.length} bytes, ${report.file_size} recorded`,
        );
      digests.push(createHash("sha256").update(body).digest("hex"));
      bytes += body.length;
    }
    if (new Set(digests).size !== 1) differences.push(`report ${report.id}: the instances served different files`);
  }
  return { differences, bytes };
}

// --- The run ---------------------------------------------------------------------------------------

async function run(flags) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chaos-cluster-"));
  const stopAll = [];
  let database = null;
  let failed = false;
  try {
    database = await createPostgresDatabase(flags.adminUrl);
    const s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: path.join(tmp, "bucket"),
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port: s3Port } = await s3.run();
    stopAll.push(() => s3.close());

    const [portA, portB] = [await freePort(), await freePort()];
    const backends = [
      { name: "web A", port: portA, served: 0 },
      { name: "web B", port: portB, served: 0 },
    ];
    const proxy = await startProxy(backends);
    stopAll.push(() => proxy.close());

    const env = { ...process.env };
    for (const name of [
      "ROLE",
      "WORKER",
      "TEST_CLOCK",
      "SMTP_URL",
      "SQLITE_PATH",
      "S3_PREFIX",
      "S3_REGION",
      "S3_FORCE_PATH_STYLE",
      "DATABASE_POOL_SIZE",
    ])
      delete env[name];
    Object.assign(env, {
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      CREDENTIALS_KEY: randomBytes(32).toString("hex"),
      BASE_URL: proxy.base,
      INTERNAL_BASE_URL: proxy.base,
      SEED_DEMO: "1",
      DEMO_ACTIVITY: "0",
      SANDBOX: "1",
      RECONCILER_GRACE_SECONDS: "2",
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      // Nothing may land on an instance's disk: these folders are each instance's own, and checked empty.
      UPLOADS_DIR: path.join(tmp, "uploads"),
      REPORTS_DIR: path.join(tmp, "reports"),
    });
    console.log(
      `Postgres database ${database.name}; bucket ${BUCKET} on s3rver :${s3Port}; proxy ${proxy.base} → :${portA}, :${portB}`,
    );

    const migrate = spawnSync(process.execPath, ["scripts/migrate.js"], { cwd: root, env, encoding: "utf8" });
    if (migrate.status !== 0) throw new Error(`npm run migrate failed:\n${migrate.stdout}${migrate.stderr}`);
    console.log(`migrate: ${migrate.stdout.trim().split("\n").at(-1)}`);

    const logOf = (name) => path.join(tmp, `${name}.log`);
    const webA = new Server({
      env: {
        ...env,
        PORT: String(portA),
        UPLOADS_DIR: path.join(tmp, "a/uploads"),
        REPORTS_DIR: path.join(tmp, "a/reports"),
      },
      logFile: logOf("web-a"),
      args: ["server.js", "--role", "web"],
      name: "web A",
    });
    const webB = new Server({
      env: {
        ...env,
        PORT: String(portB),
        UPLOADS_DIR: path.join(tmp, "b/uploads"),
        REPORTS_DIR: path.join(tmp, "b/reports"),
      },
      logFile: logOf("web-b"),
      args: ["server.js", "--role", "web"],
      name: "web B",
    });
    const worker = new Server({
      env: { ...env, UPLOADS_DIR: path.join(tmp, "w/uploads"), REPORTS_DIR: path.join(tmp, "w/reports") },
      logFile: logOf("worker"),
      args: ["server.js", "--role", "worker"],
      name: "worker",
      readyLine: "Worker running",
    });
    stopAll.push(() => Promise.all([webA, webB, worker].map((server) => server.stop())));
    await Promise.all([webA.start(), webB.start(), worker.start()]);

    const since = new Date(Date.now() - 1000).toISOString();
    const stats = {
      requests: 0,
      attempts: { knet: 0, card: 0 },
      submitted: { knet: 0, card: 0 },
      closedTab: 0,
      cameBack: 0,
      twoTabs: 0,
      flows: {},
      retries: 0,
      abandoned: {},
      failures: [],
      exports: 0,
      refunds: { asked: 0, duplicates: 0, done: 0, checking: 0, refused: 0, abandoned: 0, other: 0 },
    };
    const front = { base: proxy.base };
    const merchant = new Merchant(front, stats);
    await merchant.signIn();
    const ctx = { server: front, merchant, stats, paid: new Set(), twoTabs: new Set(), reports: new Set() };

    const reader = await openReader("postgres", { databaseUrl: database.url });
    stopAll.push(() => reader.close());
    const [admin] = await reader.all("select id, merchant_id from users where username = 'admin'");
    const [{ newest }] = await reader.all("select coalesce(max(id), 0) as newest from live_messages");
    const listeners = Array.from(
      { length: flags.readers },
      () => new LiveListener(proxy.base, new Merchant(front, stats), Number(newest)),
    );
    const listening = listeners.map((listener) => listener.run());

    let over = false;
    const note = (outcome) => (stats.flows[outcome] = (stats.flows[outcome] ?? 0) + 1);
    const person = async (work) => {
      while (!over) {
        try {
          note(await work(ctx));
        } catch (error) {
          if (error instanceof Abandoned) {
            const reason = error.message.replace(/:.*/s, "");
            stats.abandoned[reason] = (stats.abandoned[reason] ?? 0) + 1;
          } else {
            stats.failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
            if (stats.failures.length > 20) throw error;
            await sleep(500);
          }
        }
      }
    };
    const people = [
      ...Array.from({ length: flags.customers }, () => person(customerFlow)),
      ...Array.from({ length: flags.staff }, () =>
        person(async (c) => {
          await sleep(between(200, 600));
          return `refund ${await staffRefund(c)}`;
        }),
      ),
      ...Array.from({ length: flags.staff }, () => person(staffExport)),
    ];

    const started = Date.now();
    const downtimes = [];
    try {
      for (let round = 1; round <= flags.rounds; round++) {
        await sleep(between(4000, 8000));
        await Promise.all([webB.kill(), worker.kill()]);
        const down = Date.now();
        await sleep(between(1000, 3000));
        await Promise.all([webB.start(), worker.start()]);
        downtimes.push(Date.now() - down);
        console.log(
          `  round ${round}: web B and the worker killed (SIGKILL) and started again after ${((Date.now() - down) / 1000).toFixed(1)} s; ${stats.requests} links, ${stats.submitted.knet + stats.submitted.card} paid at a gateway, ${stats.refunds.asked} refunds asked, ${stats.exports} exports asked`,
        );
      }
      await sleep(3000);
    } finally {
      over = true;
    }
    await Promise.all(people);
    console.log(
      `  chaos: ${((Date.now() - started) / 1000).toFixed(0)} s; requests through the proxy: web A ${backends[0].served}, web B ${backends[1].served}; ${stats.retries} retried`,
    );
    console.log(
      `  customers: ${stats.requests} links; card details submitted KNET ${stats.submitted.knet}, card ${stats.submitted.card}; outcomes: ${Object.entries(
        stats.flows,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    if (Object.keys(stats.abandoned).length)
      console.log(
        `  abandoned at: ${Object.entries(stats.abandoned)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );

    // Settling: the worker's reconciler and jobs catch up.
    const settleStarted = Date.now();
    let books;
    for (;;) {
      const waiting = await backlog(reader);
      const [{ n: jobsWaiting }] = await reader.all(
        "select count(*) as n from jobs where status = 'running' or (status = 'queued' and run_at < ?)",
        [new Date(Date.now() - 5000).toISOString()],
      );
      const [{ n: reportsWaiting }] = await reader.all(
        "select count(*) as n from reports where state in ('queued', 'running')",
      );
      // A scheduled run cut by a kill waits for the schedule's next run.
      const [{ n: runsCut }] = await reader.all(
        "select count(*) as n from jobs j where j.status = 'failed' and j.max_attempts = 1 and j.created_at >= ? and not exists (select 1 from jobs later where later.type = j.type and later.status = 'done' and later.id > j.id)",
        [since],
      );
      books = compare(await readBooks(reader));
      if (
        waiting.operations === 0 &&
        waiting.attempts === 0 &&
        Number(jobsWaiting) === 0 &&
        Number(reportsWaiting) === 0 &&
        Number(runsCut) === 0 &&
        books.differences.length === 0
      )
        break;
      if (Date.now() - settleStarted > flags.settle * 1000) {
        console.log(
          `  not settled after ${flags.settle} s: ${waiting.operations} operations pending, ${waiting.attempts} attempts overdue, ${jobsWaiting} jobs waiting, ${runsCut} scheduled runs cut and not run since, ${reportsWaiting} reports being made`,
        );
        break;
      }
      for (const server of [webA, webB, worker])
        if (!server.running) throw new Error(`${server.name} stopped while settling:\n${server.tail}`);
      await sleep(2000);
    }
    console.log(`  settled in ${((Date.now() - settleStarted) / 1000).toFixed(0)} s`);
    // The last messages reach the channels (NOTIFY, or the hub's next look two seconds later).
    await sleep(4000);
    for (const listener of listeners) listener.stop();
    await Promise.all(listening);

    books = compare(await readBooks(reader));
    printReport("Payments and refunds, 2 web instances + worker on Postgres", books.summary, books.differences);

    const jobs = await checkJobs(reader, since);
    console.log(
      `\nJobs: ${jobs.jobs} queued during the run; ${Object.entries(jobs.byStatus)
        .map(([status, n]) => `${status} ${n}`)
        .join(
          ", ",
        )}; ${jobs.again.length} taken again after their worker died (${[...new Set(jobs.again.map((j) => j.type))].join(", ") || "none"})`,
    );
    console.log(
      `Reports: ${jobs.reports.length} asked (${stats.exports} answered 201), ${jobs.reports.filter((r) => r.state === "done").length} made, each once: ${jobs.differences.length === 0 ? "yes" : "no"}`,
    );
    for (const line of jobs.redone) console.log(`  scheduled: ${line}`);
    for (const difference of jobs.differences) console.log(`  - ${difference}`);

    const live = await checkLive(reader, listeners, {
      userId: admin.id,
      merchantId: admin.merchant_id,
      floor: Number(newest),
    });
    console.log(`\nLive channels (${listeners.length}, each its own sign-in of admin, through the proxy):`);
    console.log(
      `${"".padEnd(12)}${"connections".padStart(12)}${"cut by a kill".padStart(15)}${"written".padStart(9)}${"received".padStart(10)}${"lost".padStart(6)}${"repeated".padStart(10)}`,
    );
    const liveDifferences = [];
    live.forEach((one, index) => {
      console.log(
        `${`channel ${index + 1}`.padEnd(12)}${String(one.connections).padStart(12)}${String(one.cut).padStart(15)}${String(one.expected).padStart(9)}${String(one.received).padStart(10)}${String(one.lost.length).padStart(6)}${String(one.repeated).padStart(10)}`,
      );
      if (one.lost.length)
        liveDifferences.push(
          `channel ${index + 1} lost ${one.lost.length} messages: ${one.lost.slice(0, 10).join(", ")}`,
        );
      if (one.repeated) liveDifferences.push(`channel ${index + 1} received ${one.repeated} messages twice`);
      if (one.unexpected.length)
        liveDifferences.push(
          `channel ${index + 1} received ${one.unexpected.length} messages not written for its user: ${one.unexpected.slice(0, 10).join(", ")}`,
        );

      if (one.refusals.length)
        liveDifferences.push(`channel ${index + 1} was refused: ${[...new Set(one.refusals)].join(", ")}`);
      if (one.expected === 0) liveDifferences.push("no live message was written during the run");
    });
    if (live.every((one) => one.cut === 0))
      liveDifferences.push(
        "no channel was open on an instance when it was killed: nothing proves a resume across a restart",
      );
    for (const difference of liveDifferences) console.log(`  - ${difference}`);

    const downloads = await checkDownloads(jobs.reports, [webA, webB], merchant.token);
    const onDisk = ["a", "b", "w"].flatMap((name) =>
      ["uploads", "reports"].flatMap((folder) => {
        const dir = path.join(tmp, name, folder);
        return fs.existsSync(dir)
          ? fs
              .readdirSync(dir, { recursive: true })
              .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
              .map((entry) => `${name}/${folder}/${entry}`)
          : [];
      }),
    );
    if (onDisk.length)
      downloads.differences.push(
        `files on an instance's own disk instead of the bucket: ${onDisk.slice(0, 5).join(", ")}`,
      );
    console.log(
      `\nReports downloaded from web A and from web B: ${jobs.reports.filter((r) => r.state === "done").length * 2} downloads, ${(downloads.bytes / 1024).toFixed(0)} KB, the same bytes from both: ${downloads.differences.length === 0 ? "yes" : "no"}`,
    );
    for (const difference of downloads.differences) console.log(`  - ${difference}`);

    if (stats.failures.length) {
      console.log(`\nThe run itself failed ${stats.failures.length} times:`);
      for (const failure of stats.failures.slice(0, 5))
        console.log(`  ${failure.split("\n").slice(0, 3).join("\n  ")}`);
    }
    const differences =
      books.differences.length +
      jobs.differences.length +
      liveDifferences.length +
      downloads.differences.length +
      stats.failures.length;
    failed = differences > 0;
    console.log(
      differences === 0
        ? "\nNo differences: the gateways' books match the platform's, every job ran once, no live message was lost or repeated, every report downloads from either instance."
        : `\n${differences} differences (above).`,
    );
    if (flags.keep) console.log(`kept: ${tmp} (logs, bucket), database ${database.url}`);
  } finally {
    for (const stop of stopAll.reverse()) await Promise.resolve(stop()).catch(() => undefined);
    if (!flags.keep) {
      if (database)
        await dropPostgresDatabase(flags.adminUrl, database.name).catch((error) =>
          console.error(`could not drop ${database.name}: ${error.message}`),
        );
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  return !failed;
}

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    customers: { type: "string", default: "4" },
    staff: { type: "string", default: "2" },
    readers: { type: "string", default: "3" },
    settle: { type: "string", default: "180" },
    seed: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const flags = {
  rounds: Number(values.rounds),
  customers: Number(values.customers),
  staff: Number(values.staff),
  readers: Number(values.readers),
  settle: Number(values.settle),
  keep: values.keep,
  adminUrl: process.env.TEST_POSTGRES_URL || DEFAULT_ADMIN_URL,
};
if (!(
  [flags.rounds, flags.customers, flags.staff, flags.readers].every((n) => Number.isInteger(n) && n >= 1) &&
  flags.settle > 0
)) {
  console.error(
    "Usage: npm run chaos:cluster -- [--rounds n] [--customers n] [--staff n] [--readers n] [--settle s] [--seed n] [--keep]",
  );
  process.exit(2);
}
if (!(await postgresReachable(flags.adminUrl))) {
  console.error(`No Postgres answers at ${flags.adminUrl} (TEST_POSTGRES_URL): the cluster runs on Postgres.`);
  process.exit(2);
}
const seed = values.seed !== undefined ? Number(values.seed) | 0 : randomBytes(4).readInt32LE();
setSeed(seed);
ensureBuild();
console.log(`chaos:cluster, seed ${seed}: 2 web instances and a worker, ${flags.rounds} rounds of kills`);
try {
  process.exitCode = (await run(flags)) ? 0 : 1;
} catch (error) {
  console.error(`\nchaos:cluster failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  process.exitCode = 1;
}
