/**
 * What D1 was asked (docs/decisions/111-what-production-pays.md): round trips (each `first`/`all`/`run`/`raw` and each `batch` is one), statements, and the rows
 * D1 reports reading and writing in its results' `meta` (`raw()` results carry none: those
 * statements are counted in `statementsWithoutMeta`). Two counters use it: the isolate's, in local
 * mode only, which `npm run bench:load` reads from `GET /dev/d1-usage` to print D1 statements per
 * request and per 1,000 requests (locally the Worker, its Durable Objects, the cron and the queue
 * consumers share one isolate, so it counts all of them); and each request's own, in every mode,
 * for its log line (`countD1Into`, docs/decisions/133-request-logs.md).
 */
import { isLocal, type ModeVars } from "../env";

export interface D1Usage {
  roundTrips: number;
  statements: number;
  /** Statements that write (INSERT, UPDATE, DELETE, …): the primary's share, whatever replicas serve. */
  writeStatements: number;
  statementsWithoutMeta: number;
  rowsRead: number;
  rowsWritten: number;
}

export function emptyD1Usage(): D1Usage {
  return { roundTrips: 0, statements: 0, writeStatements: 0, statementsWithoutMeta: 0, rowsRead: 0, rowsWritten: 0 };
}

/** The isolate's counter (local mode only). */
const isolateUsage = emptyD1Usage();

/** A statement that writes, by its first keyword (a leading WITH is read past to the statement it ends in). */
const WRITES = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;

export function d1Usage(): D1Usage {
  return { ...isolateUsage };
}

function countMeta(usage: D1Usage, meta: Partial<D1Meta> | undefined): void {
  if (!meta) {
    usage.statementsWithoutMeta++;
    return;
  }
  usage.rowsRead += meta.rows_read ?? 0;
  usage.rowsWritten += meta.rows_written ?? 0;
}

/** The real statement behind a counted one, for `batch`, which accepts only D1's own statements. */
const realStatement = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
const writing = new WeakMap<D1PreparedStatement, boolean>();

function countedStatement(usage: D1Usage, statement: D1PreparedStatement, writes: boolean): D1PreparedStatement {
  const one = () => {
    usage.roundTrips++;
    usage.statements++;
    if (writes) usage.writeStatements++;
  };
  // all() and run() answer with the meta D1 reports (first() is sent as all()).
  const withMeta = async <R extends { meta: Partial<D1Meta> }>(sent: Promise<R>): Promise<R> => {
    one();
    const result = await sent;
    countMeta(usage, result.meta);
    return result;
  };
  const counted: D1PreparedStatement = {
    bind: (...values: unknown[]) => countedStatement(usage, statement.bind(...values), writes),
    // D1 sends first() as a query for every row and keeps the first; all() does the same and also
    // returns the meta, so the rows read are known.
    first: (async (column?: string) => {
      const result = await withMeta(statement.all<Record<string, unknown>>());
      const row = result.results[0];
      if (row === undefined) return null;
      return column === undefined ? row : (row[column] ?? null);
    }) as D1PreparedStatement["first"],
    all: (() => withMeta(statement.all())) as D1PreparedStatement["all"],
    run: (() => withMeta(statement.run())) as D1PreparedStatement["run"],
    raw: (async (options?: { columnNames?: boolean }) => {
      one();
      usage.statementsWithoutMeta++;
      return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
    }) as D1PreparedStatement["raw"],
  };
  realStatement.set(counted, statement);
  writing.set(counted, writes);
  return counted;
}

async function countedBatch<T>(usage: D1Usage, d1: Pick<D1Database, "batch">, statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
  usage.roundTrips++;
  usage.statements += statements.length;
  usage.writeStatements += statements.filter((s) => writing.get(s)).length;
  const results = await d1.batch<T>(statements.map((s) => realStatement.get(s) ?? s));
  for (const result of results) countMeta(usage, result.meta);
  return results;
}

function countedSession(usage: D1Usage, session: D1DatabaseSession): D1DatabaseSession {
  return {
    prepare: (query: string) => countedStatement(usage, session.prepare(query), WRITES.test(query)),
    batch: <T>(statements: D1PreparedStatement[]) => countedBatch<T>(usage, session, statements),
    getBookmark: () => session.getBookmark(),
  };
}

function countedD1(usage: D1Usage, d1: D1Database): D1Database {
  return {
    prepare: (query: string) => countedStatement(usage, d1.prepare(query), WRITES.test(query)),
    batch: <T>(statements: D1PreparedStatement[]) => countedBatch<T>(usage, d1, statements),
    exec: async (query: string) => {
      usage.roundTrips++;
      const result = await d1.exec(query);
      usage.statements += result.count;
      usage.statementsWithoutMeta += result.count;
      return result;
    },
    dump: () => d1.dump(),
    withSession: (constraintOrBookmark?: string) => countedSession(usage, d1.withSession(constraintOrBookmark)),
  };
}

const countedEnvs = new WeakMap<object, object>();

/**
 * The bindings with D1 counted, in local mode; anywhere else the bindings as they are. Applied where
 * the runtime hands the Worker its bindings (fetch, cron, queues, each Durable Object), so every D1
 * call of the isolate is counted, also those that do not go through a request's `c.var.db`.
 */
export function countD1InLocalMode<E extends ModeVars & { DB: D1Database }>(env: E): E {
  if (!isLocal(env)) return env;
  const known = countedEnvs.get(env);
  if (known) return known as E;
  const counted = { ...env, DB: countedD1(isolateUsage, env.DB) };
  countedEnvs.set(env, counted);
  return counted;
}

/**
 * The bindings with every D1 call also counted into `usage`: one request's own statements, in any
 * mode. The request's D1 session (`withSession`) and the calls services make on `env.DB` go through
 * the same counter; what the request's Durable Objects, queue consumers or `waitUntil` work ask of
 * D1 after the answer is not in it.
 */
export function countD1Into<E extends { DB: D1Database }>(usage: D1Usage, env: E): E {
  return { ...env, DB: countedD1(usage, env.DB) };
}
