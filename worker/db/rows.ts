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

/** A column's value as D1 returns it: booleans as 0/1, JSON as text, every other type as the schema types it. */
type Raw<C> = C extends { _: { data: infer D; driverParam: infer P; notNull: infer N } }
  ? ([D] extends [boolean] ? P : [D] extends [Date] ? P : D extends string | number ? D : P) | (N extends true ? never : null)
  : never;

/**
 * A table's row as D1 returns it from `SELECT *` (snake_case column names, raw values), typed from
 * the schema: a query's row type is a `Pick` of it, so a renamed or misspelt column fails the
 * typecheck where the row is read.
 */
export type RowOf<T extends SQLiteTable> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]: Raw<T["_"]["columns"][K]>;
};
