// Reading D1 for a backup: every statement through `wrangler d1 execute --json --command`, the same
// path for the local state (`--local --persist-to`) and the remote database (`--remote`), so what
// the restore test reads locally is what a production backup reads (docs/decisions/137).
//
// Why not `wrangler d1 export`: it refuses a database with virtual tables (our FTS5 index; Cloudflare's
// D1 docs, "Import and export data": "Export is not supported for virtual tables, including databases
// with virtual tables"), a running export blocks the database's other requests, and the local export
// has no --persist-to. Plain SELECTs are ordinary reads. Each row comes back as its INSERT statement,
// built by SQLite's quote() (exact integers and reals, text with its quotes doubled, blobs as X'…'),
// so JSON never carries a value it could round.
import { spawn } from "node:child_process";
import { WRANGLER_CONFIG, binPath, toolEnv } from "../local-env.mjs";

export interface D1Source {
  remote: boolean;
  /** The local state (`--persist-to`); ignored with `remote`. */
  stateDir: string;
  /** A wrangler environment (`--env`), for a remote staging or production database. */
  env?: string;
}

export type Row = Record<string, unknown>;

/** wrangler's arguments for the source: where the database is. */
export function whereArgs(source: D1Source): string[] {
  return [
    ...(source.remote ? ["--remote"] : ["--local", "--persist-to", source.stateDir]),
    ...(source.env ? ["--env", source.env] : []),
    "-c",
    WRANGLER_CONFIG,
  ];
}

/** Runs a wrangler command and gives back its stdout; its output is in the error when it fails. */
export function runWrangler(args: string[]): Promise<string> {
  return runTool(binPath("wrangler"), args, toolEnv({ CI: "true" }), "wrangler");
}

/**
 * Runs a program and gives back its stdout as text. Each stream is decoded as a whole (setEncoding),
 * not chunk by chunk: a letter of two bytes split between two chunks ("Ø" in "FØRDE") would
 * otherwise come back as two replacement characters, and a backup would hold them.
 */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv, name = command): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${name} ${args.slice(0, 3).join(" ")} feilet (kode ${code}):\n${(err || out).trim().slice(0, 4000)}`));
    });
  });
}

// One --command stays well under Linux's limit for a single argument (128 KiB).
const COMMAND_BYTES = 60_000;

/** Runs the statements (in as few wrangler calls as fit) and gives each one's rows, in order. */
export async function query(source: D1Source, statements: string[]): Promise<Row[][]> {
  const groups: string[][] = [];
  for (const statement of statements) {
    const last = groups.at(-1);
    const size = last ? last.reduce((n, s) => n + s.length + 2, 0) : 0;
    if (last && size + statement.length < COMMAND_BYTES) last.push(statement);
    else groups.push([statement]);
  }
  const results: Row[][] = [];
  for (const group of groups) {
    const out = await runWrangler(["d1", "execute", "DB", "--json", "--command", group.join(";\n"), ...whereArgs(source)]);
    const parsed = JSON.parse(out) as { results?: Row[] }[];
    if (parsed.length !== group.length) throw new Error(`wrangler ga ${parsed.length} svar på ${group.length} spørringer`);
    results.push(...parsed.map((p) => p.results ?? []));
  }
  return results;
}

/** An identifier as SQL: in double quotes, a quote inside doubled. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface TableInfo {
  name: string;
  columns: string[];
  /** Primary key columns in key order (paging of a WITHOUT ROWID table). */
  primaryKey: string[];
  withoutRowid: boolean;
}

export interface Schema {
  tables: TableInfo[];
  /** Virtual tables (the FTS5 index): never read, rebuilt by the restore. */
  virtual: string[];
  /** d1_migrations' names, in the order they were applied. */
  migrations: string[];
}

/** The real tables (not virtual, not their shadow tables, not SQLite's or D1's own) and the migrations, in one call. */
export async function readSchema(source: D1Source): Promise<Schema> {
  const [list, columns, applied] = await query(source, [
    "PRAGMA table_list",
    `SELECT m.name AS tbl, p.name AS col, p.pk AS pk FROM pragma_table_list AS m JOIN pragma_table_info(m.name) AS p
     WHERE m.schema = 'main' AND m.type = 'table' ORDER BY m.name, p.cid`,
    "SELECT name FROM d1_migrations ORDER BY id",
  ]);
  const main = list.filter((t) => t.schema === "main");
  const tables = main
    .filter((t) => t.type === "table")
    .map((t) => String(t.name))
    .filter((name) => !name.startsWith("sqlite_") && !name.startsWith("_cf_") && name !== "d1_migrations")
    .sort()
    .map((name) => {
      const own = columns.filter((c) => c.tbl === name);
      return {
        name,
        withoutRowid: Number(main.find((t) => t.name === name)?.wr) === 1,
        columns: own.map((c) => String(c.col)),
        primaryKey: own
          .filter((c) => Number(c.pk) > 0)
          .sort((a, b) => Number(a.pk) - Number(b.pk))
          .map((c) => String(c.col)),
      };
    });
  const virtual = main.filter((t) => t.type === "virtual").map((t) => String(t.name));
  return { tables, virtual: virtual.sort(), migrations: applied.map((r) => String(r.name)) };
}

/** One page of a table's rows, each as `INSERT INTO … VALUES (…);`, after `after` (rowid, or rows skipped). */
function pageStatement(table: TableInfo, after: number, pageSize: number): string {
  const values = table.columns.map((c) => `quote(${ident(c)})`).join(" || ',' || ");
  const insert = `'INSERT INTO ${ident(table.name).replaceAll("'", "''")} (${table.columns.map(ident).join(", ").replaceAll("'", "''")}) VALUES (' || ${values} || ');'`;
  if (table.withoutRowid) {
    const order = table.primaryKey.map(ident).join(", ");
    return `SELECT ${insert} AS statement FROM ${ident(table.name)} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${after}`;
  }
  return `SELECT rowid AS position, ${insert} AS statement FROM ${ident(table.name)} WHERE rowid > ${after} ORDER BY rowid LIMIT ${pageSize}`;
}

/**
 * Every row of the tables as INSERT statements, in rowid (or primary key) order, handed to `write`
 * table by table as they come. Pages of all unfinished tables go in one wrangler call. Returns the
 * rows per table.
 */
export async function readRows(
  source: D1Source,
  tables: TableInfo[],
  write: (table: string, statements: string[]) => void,
  pageSize = source.remote ? 500 : 5000,
): Promise<Map<string, number>> {
  const progress = new Map(tables.map((t) => [t.name, { table: t, after: 0, rows: 0, done: false }]));
  for (;;) {
    const open = [...progress.values()].filter((p) => !p.done);
    if (open.length === 0) break;
    const pages = await query(
      source,
      open.map((p) => pageStatement(p.table, p.after, pageSize)),
    );
    open.forEach((p, i) => {
      const page = pages[i];
      write(
        p.table.name,
        page.map((r) => String(r.statement)),
      );
      p.rows += page.length;
      p.after = p.table.withoutRowid ? p.after + page.length : Number(page.at(-1)?.position ?? p.after);
      p.done = page.length < pageSize;
    });
  }
  return new Map([...progress.values()].map((p) => [p.table.name, p.rows]));
}
