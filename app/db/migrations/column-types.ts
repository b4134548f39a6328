import type { ColumnDataType, ColumnDefinitionBuilder } from "kysely";
import type { Engine } from "../database.server";

/** The only place where the two engines differ: the types of generated ids and timestamps. */
export function columnTypes(engine: Engine) {
  const timestamp: ColumnDataType = engine === "postgres" ? "timestamptz" : "text";
  const id =
    engine === "postgres"
      ? { type: "serial" as ColumnDataType, build: (c: ColumnDefinitionBuilder) => c.primaryKey() }
      : {
          type: "integer" as ColumnDataType,
          build: (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement(),
        };
  return { id, timestamp };
}
