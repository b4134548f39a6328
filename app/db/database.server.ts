import { errorField, log } from "~/lib/log.server";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

export type DB = Kysely<Database>;
export type Engine = "sqlite" | "postgres";

// Postgres answers timestamptz as Date and bigint as string; both engines must hand the
// domain the same shapes: ISO strings and numbers.
pg.types.setTypeParser(1184, (value) => new Date(value).toISOString());
pg.types.setTypeParser(1114, (value) => new Date(`${value}Z`).toISOString());
pg.types.setTypeParser(20, (value) => Number(value));

const engines = new WeakMap<object, Engine>();
const connectionStrings = new WeakMap<object, string>();
const pools = new WeakMap<object, pg.Pool>();

/** The Postgres pool a database was opened on (its use is a metric); none on SQLite. */
export function poolOf(db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db);
}

/** The Postgres a database was opened on, for what needs a connection of its own (LISTEN); none on SQLite. */
export function connectionStringOf(db: Kysely<Database>): string | undefined {
  return connectionStrings.get(db);
}

export function createDatabase(options: { databaseUrl?: string; sqlitePath?: string; poolSize?: number }): DB {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection that the server closes (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on("error", (error: Error & { code?: string }) => {
      if (error.code !== "57P01") log.error({ error: errorField(error) }, "postgres pool");
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    engines.set(db, "postgres");
    connectionStrings.set(db, options.databaseUrl);
    pools.set(db, pool);
    return db;
  }
  const file = options.sqlitePath ?? "./data/platform.sqlite";
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma("journal_mode = WAL");
  connection.pragma("busy_timeout = 5000");
  connection.pragma("foreign_keys = ON");
  connection.pragma("synchronous = NORMAL");
  // 64 MB of page cache per connection (the default is 2 MB): a broad search over a large list
  // reads thousands of rows, and re-reading them from the operating system dominated its time.
  connection.pragma("cache_size = -65536");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  engines.set(db, "sqlite");
  return db;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing cost more than running most of our reads. The
 * connection handed to Kysely keeps the statements of the last 500 distinct SQL texts. A statement
 * still being iterated (a streamed export) is busy, so a query of the same text meanwhile gets a
 * fresh one.
 */
function withStatementCache(connection: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  return new Proxy(connection, {
    get(target, property) {
      if (property === "prepare") {
        return (source: string) => {
          const cached = statements.get(source);
          if (cached && !cached.busy) {
            statements.delete(source);
            statements.set(source, cached);
            return cached;
          }
          const statement = target.prepare(source);
          if (!cached) {
            statements.set(source, statement);
            if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function engineOf(db: Kysely<Database> | Transaction<Database>): Engine {
  const engine = engines.get(db);
  if (!engine) throw new Error("engineOf: this Kysely instance was not made by createDatabase");
  return engine;
}

/**
 * Takes one merchant's lock inside a writeTransaction: its row FOR UPDATE on Postgres, so that the
 * merchant's changes that read before they write (an order number, the one default unit, a unique
 * name) are taken one at a time. SQLite's BEGIN IMMEDIATE already takes them one at a time.
 */
export async function lockMerchant(trx: DB, merchantId: number): Promise<void> {
  if (engineOf(trx) === "postgres")
    await trx.selectFrom("merchants").select("id").where("id", "=", merchantId).forUpdate().execute();
}

/**
 * Runs a read-then-write unit of work with the write lock taken up front:
 * BEGIN IMMEDIATE on SQLite (so two writers never both read the old state),
 * an ordinary transaction on Postgres where callers lock rows with FOR UPDATE.
 */
export async function writeTransaction<T>(db: DB, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (engines.get(db) === "postgres") {
    return db.transaction().execute((trx) => {
      engines.set(trx, "postgres");
      return work(trx);
    });
  }
  return db.connection().execute(async (connection) => {
    engines.set(connection, "sqlite");
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}
