import { drizzle } from "drizzle-orm/d1";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./tables";

/**
 * What a D1 binding and a D1 session (`withSession`, docs/decisions/110-read-replicas.md) have in
 * common: prepare and batch. A session has no exec, dump or withSession; code that needs them uses
 * env.DB (the primary) itself.
 */
export type D1Client = Pick<D1Database, "prepare" | "batch">;

export type Db = DrizzleD1Database & { $client: D1Client };

/**
 * A binding (the primary) or a request's session; drizzle only ever calls prepare and batch on it.
 * Without the schema: the code uses the query builder and SQL, never drizzle's relational queries
 * (`db.query`), and with the schema drizzle rebuilt their relations table on every request (about a
 * fifth of a listing page's own CPU in a profile of the Worker).
 */
export function getDb(d1: D1Database | D1DatabaseSession): Db {
  return drizzle(d1 as D1Database);
}
export { schema };
