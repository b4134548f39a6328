import { DEFAULT_MIGRATION_TABLE, Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { engineOf, type DB } from "./database.server";

type EngineMigration = { up: (db: any, engine: ReturnType<typeof engineOf>) => Promise<void> };

/**
 * Every migration in ./migrations, found by its name (`NNNN-name.ts`): numbered, append-only, run in
 * the order of their names. A landed migration is never edited; a change is a new file.
 */
const migrations: Record<string, EngineMigration> = Object.fromEntries(
  Object.entries(
    import.meta.glob<EngineMigration>(["./migrations/[0-9][0-9][0-9][0-9]-*.ts", "!./migrations/*.test.ts"], {
      eager: true,
    }),
  )
    .map(([file, migration]): [string, EngineMigration] => [file.replace(/^.*\/(.*)\.ts$/, "$1"), migration])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);

/** The migrations' names, oldest first: the newest is the schema this code expects. */
export const MIGRATION_NAMES = Object.keys(migrations);

function migratorOf(db: DB) {
  const engine = engineOf(db);
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, migration]): [string, Migration] => [
          name,
          { up: (database) => migration.up(database, engine) },
        ]),
      );
    },
  };
  return new Migrator({ db, provider });
}

/**
 * Brings the database to the newest migration, or only up to `upTo` (an older schema, to prove
 * upgrades from it); answers the names it applied.
 */
export async function migrateToLatest(db: DB, options: { upTo?: string } = {}) {
  if (options.upTo !== undefined && !MIGRATION_NAMES.includes(options.upTo))
    throw new Error(`No migration ${options.upTo}`);
  const migrator = migratorOf(db);
  const { error, results } =
    options.upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(options.upTo);
  if (error) {
    const failed = results?.find((result) => result.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "?"} failed: ${String(error)}`, { cause: error });
  }
  return results?.filter((result) => result.status === "Success").map((result) => result.migrationName) ?? [];
}

/**
 * The migrations this code has that the database has not run yet (none: it is at the latest). Reads
 * Kysely's own record of them, one small query: readiness asks it every few seconds.
 */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const rows = await (db as Kysely<any>).selectFrom(DEFAULT_MIGRATION_TABLE).select("name").execute();
  const applied = new Set(rows.map((row: { name: string }) => row.name));
  return MIGRATION_NAMES.filter((name) => !applied.has(name));
}
