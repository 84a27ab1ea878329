// A whole-table row as D1 returns it (`SELECT *`, `RETURNING *`: snake_case columns, 0/1 booleans,
// JSON text) turned into the schema's typed row, with each column's own decoder: the same values the
// drizzle query builder produced (decision 099).
import { getTableColumns, type InferSelectModel } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

export function rowOf<T extends SQLiteTable>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    // A missing column is a query that did not select the whole row, never a null.
    if (value === undefined) throw new Error(`rowOf: column ${column.name} was not selected`);
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
