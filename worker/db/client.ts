// The D1 handle every service takes: the binding (the primary) or a request's session. Services
// write SQL (decision 099); drizzle keeps only the schema (worker/db/tables.ts), which drizzle-kit
// turns into migrations and rowOf (worker/db/rows.ts) into typed rows.
import * as schema from "./tables";

/**
 * The handle services take: env.DB itself, or the request's session (middleware/db.ts). What a D1
 * binding and a D1 session (`withSession`, docs/decisions/110-read-replicas.md) have in
 * common: prepare and batch. A session has no exec, dump or withSession; code that needs them uses
 * env.DB (the primary) itself.
 */
export type Db = Pick<D1Database, "prepare" | "batch">;
export { schema };
