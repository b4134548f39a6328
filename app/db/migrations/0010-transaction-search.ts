import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * Search by customer name (docs/decisions/0019): every transaction's searchable words in one table
 * the search reads by index range, newest first, without touching the transactions.
 *
 * A transaction's terms are its normalised name from each word on ("fatima al sabah", "al sabah",
 * "sabah": a search for the start of any word, or of several words in a row, is a prefix of one of
 * them) and its lower-cased e-mail address. Triggers keep them in step with the row, whichever code
 * writes it; `live` follows deleted_at, and the plugin and creation time are copied so a section's
 * list and its order are read from the index alone.
 */

/** Migration 0010's copy of app/domain/transactions/search-key.ts, frozen with it. */
const FOLDS: [string, string][] = [
  ["أ", "ا"], ["إ", "ا"], ["آ", "ا"], ["ٱ", "ا"], ["ة", "ه"], ["ى", "ي"], ["ی", "ي"], ["ؤ", "و"], ["ئ", "ي"], ["ک", "ك"],
  ["ـ", ""], ["\u064B", ""], ["\u064C", ""], ["\u064D", ""], ["\u064E", ""], ["\u064F", ""], ["\u0650", ""], ["\u0651", ""],
  ["\u0652", ""], ["\u0670", ""], ["-", " "], [".", " "], ["_", " "], ["'", " "], [",", " "], ["\t", " "], ["\n", " "], ["\r", " "],
];

function literal(value: string, engine: Engine) {
  const code = { "\t": 9, "\n": 10, "\r": 13 }[value];
  if (code !== undefined) return engine === "postgres" ? `chr(${code})` : `char(${code})`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** The replacements of the name's form, in order, each as a function of the text before it. */
function steps(engine: Engine): ((text: string) => string)[] {
  return [
    (text) => (engine === "postgres" ? `translate(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')` : `lower(${text})`),
    ...FOLDS.map(([from, to]) => (text: string) => `replace(${text}, ${literal(from, engine)}, ${literal(to, engine)})`),
    ...[1, 2, 3].map(() => (text: string) => `replace(${text}, '  ', ' ')`),
    (text) => `trim(${text})`,
  ];
}

/** The name's form of a text expression, as one expression (for the backfill). */
function nameKeySql(expression: string, engine: Engine) {
  return steps(engine).reduce((text, step) => step(text), expression);
}

/**
 * The same as a select of one column `k`, nested ten steps at a time: a trigger's text is parsed
 * again whenever the schema is read, and older sqlite3 shells refuse expressions nested thirty deep.
 */
function nameKeySelect(expression: string, engine: Engine) {
  const all = steps(engine);
  let select = `select ${expression} as k`;
  for (let start = 0; start < all.length; start += 10) {
    const text = all.slice(start, start + 10).reduce((inner, step) => step(inner), "s.k");
    select = `select ${text} as k from (${select}) s`;
  }
  return select;
}

/** The terms of the row `row` (new, or a table alias), as a select of one column `term`. */
function termsSql(row: string, engine: Engine) {
  const key = nameKeySelect(`coalesce(${row}.customer_first_name, '') || ' ' || coalesce(${row}.customer_last_name, '')`, engine);
  return `
    select n.k as term from (${key}) n where n.k <> ''
    union all
    select substr(n.k, s.p + 1) from (${key}) n join search_positions s on s.p < length(n.k) and substr(n.k, s.p, 1) = ' '
    union all
    select ${row}.customer_email_lc where ${row}.customer_email_lc is not null and ${row}.customer_email_lc <> ''`;
}

const COLUMNS = "transaction_id, term, merchant_id, plugin, live, created_at";
const values = (row: string) => `${row}.id, t.term, ${row}.merchant_id, ${row}.plugin, case when ${row}.deleted_at is null then 1 else 0 end, ${row}.created_at`;

export async function up(db: Kysely<any>, engine: Engine) {
  const timestamp = engine === "postgres" ? "timestamptz" : "text";
  // 1..512: the character positions a word can start after (names are at most 100 + 100 characters).
  await db.schema.createTable("search_positions").addColumn("p", "integer", (c) => c.primaryKey()).execute();
  await sql`with recursive n(p) as (select 1 union all select p + 1 from n where p < 512) insert into search_positions (p) select p from n`.execute(db);

  await db.schema
    .createTable("transaction_search_terms")
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id").onDelete("cascade"))
    // Compared byte by byte on both engines, whatever the database's locale: a prefix is a range.
    .addColumn("term", "text", (c) => (engine === "postgres" ? c.notNull().modifyEnd(sql`collate "C"`) : c.notNull()))
    .addColumn("merchant_id", "integer", (c) => c.notNull())
    .addColumn("plugin", "text", (c) => c.notNull())
    .addColumn("live", "integer", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("transaction_search_terms_pk", ["transaction_id", "term"])
    .execute();
  // The terms of the rows already there, kind by kind.
  const key = nameKeySql("coalesce(x.customer_first_name, '') || ' ' || coalesce(x.customer_last_name, '')", engine);
  const insert = engine === "postgres" ? `insert into transaction_search_terms (${COLUMNS})` : `insert or ignore into transaction_search_terms (${COLUMNS})`;
  const ignore = engine === "postgres" ? " on conflict do nothing" : "";
  const named = `(select x.id, x.merchant_id, x.plugin, x.deleted_at, x.created_at, ${key} as k from transactions x) x`;
  const live = "case when x.deleted_at is null then 1 else 0 end";
  await sql.raw(`${insert} select x.id, x.k, x.merchant_id, x.plugin, ${live}, x.created_at from ${named} where x.k <> ''${ignore}`).execute(db);
  await sql
    .raw(`${insert} select x.id, substr(x.k, s.p + 1), x.merchant_id, x.plugin, ${live}, x.created_at from ${named} join search_positions s on s.p < length(x.k) and substr(x.k, s.p, 1) = ' '${ignore}`)
    .execute(db);
  await sql
    .raw(`${insert} select x.id, x.customer_email_lc, x.merchant_id, x.plugin, ${live}, x.created_at from transactions x where x.customer_email_lc is not null and x.customer_email_lc <> ''${ignore}`)
    .execute(db);

  // A list's search: its merchant (and section), live or deleted, the term's range, newest first.
  await db.schema.createIndex("transaction_search_terms_all").on("transaction_search_terms").columns(["merchant_id", "live", "term", "created_at", "transaction_id"]).execute();
  await db.schema
    .createIndex("transaction_search_terms_plugin")
    .on("transaction_search_terms")
    .columns(["merchant_id", "plugin", "live", "term", "created_at", "transaction_id"])
    .execute();
  // The e-mail branch of the search now reads the terms; these only served it.
  await sql`drop index if exists transactions_email_live`.execute(db);
  await sql`drop index if exists transactions_email_plugin_live`.execute(db);

  // "Partially refunded" (paid, some of it given back) as a filter: few rows, read newest first. The
  // state leads as in transactions_list_state, so SQLite's planner sees this smaller index as at least as good.
  const partial = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on("transactions").columns(columns).where(sql<boolean>`deleted_at is null and refunded_amount > 0`).execute();
  await partial("transactions_list_partially_refunded", ["merchant_id", "state", "created_at"]);
  await partial("transactions_list_plugin_partially_refunded", ["merchant_id", "plugin", "state", "created_at"]);

  if (engine === "postgres") {
    await sql
      .raw(
        `create function transaction_search_terms_write() returns trigger language plpgsql as $$
        begin
          if tg_op = 'UPDATE' then
            delete from transaction_search_terms where transaction_id = new.id;
          end if;
          insert into transaction_search_terms (${COLUMNS})
            select ${values("new")} from (${termsSql("new", engine)}) t
            on conflict do nothing;
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function transaction_search_terms_live() returns trigger language plpgsql as $$
        begin
          update transaction_search_terms set live = case when new.deleted_at is null then 1 else 0 end where transaction_id = new.id;
          return null;
        end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger transactions_search_insert after insert on transactions for each row execute function transaction_search_terms_write()`).execute(db);
    await sql
      .raw(
        `create trigger transactions_search_update after update of customer_first_name, customer_last_name, customer_email_lc on transactions for each row
         when (old.customer_first_name is distinct from new.customer_first_name or old.customer_last_name is distinct from new.customer_last_name
           or old.customer_email_lc is distinct from new.customer_email_lc)
         execute function transaction_search_terms_write()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger transactions_search_live after update of deleted_at on transactions for each row
         when ((old.deleted_at is null) <> (new.deleted_at is null)) execute function transaction_search_terms_live()`,
      )
      .execute(db);
    return;
  }
  const insertTerms = `insert or ignore into transaction_search_terms (${COLUMNS}) select ${values("new")} from (${termsSql("new", engine)}) t;`;
  await sql.raw(`create trigger transactions_search_insert after insert on transactions begin ${insertTerms} end`).execute(db);
  await sql
    .raw(
      `create trigger transactions_search_update after update of customer_first_name, customer_last_name, customer_email_lc on transactions
       when old.customer_first_name is not new.customer_first_name or old.customer_last_name is not new.customer_last_name
         or old.customer_email_lc is not new.customer_email_lc
       begin delete from transaction_search_terms where transaction_id = new.id; ${insertTerms} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger transactions_search_live after update of deleted_at on transactions
       when (old.deleted_at is null) <> (new.deleted_at is null)
       begin update transaction_search_terms set live = case when new.deleted_at is null then 1 else 0 end where transaction_id = new.id; end`,
    )
    .execute(db);
}
