// Loading a backup's rows into a migrated local D1 (docs/decisions/137): the triggers are set aside
// (the rows already hold what they wrote), the rows the migrations wrote (the system user, the postal
// places) make way for the backup's, the tables are loaded parents first, then the search index is
// written from the rows as the migration that made it writes it, and the triggers come back.
import { readFileSync } from "node:fs";
import path from "node:path";
import { searchIndexRebuild } from "../../worker/features/search/fold-sql";
import { ident } from "./d1-read";
import type { Manifest } from "./manifest";

/** The few parts of a D1 binding the restore uses (the full type is worker-configuration.d.ts). */
export interface Statement {
  bind(...values: unknown[]): Statement;
  first<T>(): Promise<T | null>;
  all<T>(): Promise<{ results: T[] }>;
}
export interface Database {
  prepare(sql: string): Statement;
  batch(statements: Statement[]): Promise<unknown[]>;
}

// Statements per D1 batch (one transaction each): big enough to be quick, small enough for any table.
const BATCH = 500;

/** The tables in an order where every table comes after the tables its foreign keys point at. */
export async function parentsFirst(db: Database, tables: string[]): Promise<string[]> {
  const inBackup = new Set(tables);
  const parents = new Map<string, Set<string>>();
  const answers = await db.batch(
    tables.map((t) => db.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?1)').bind(t)),
  );
  tables.forEach((table, i) => {
    const { results } = answers[i] as { results: { parent: string }[] };
    parents.set(table, new Set(results.map((r) => r.parent).filter((p) => p !== table && inBackup.has(p))));
  });
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (ready.length === 0) {
      const stuck = tables.filter((t) => !placed.has(t));
      throw new Error(`Fremmednøklene går i ring mellom ${stuck.join(", ")}: gjenopprettingen kan ikke laste dem hver for seg.`);
    }
    for (const t of ready) {
      order.push(t);
      placed.add(t);
    }
  }
  return order;
}

/** A table's INSERT statements from its file in the backup. */
export async function tableStatements(folder: string, file: string): Promise<string[]> {
  const { unstable_splitSqlQuery } = await import("wrangler");
  const text = readFileSync(path.join(folder, file), "utf8");
  return text.trim() === "" ? [] : unstable_splitSqlQuery(text).filter((s) => s.trim() !== "");
}

async function inBatches(db: Database, statements: string[]): Promise<void> {
  for (let i = 0; i < statements.length; i += BATCH) {
    // Deferred to the batch's commit: a row may name a parent loaded later in the same batch.
    const chunk = ["PRAGMA defer_foreign_keys = on", ...statements.slice(i, i + BATCH)];
    await db.batch(chunk.map((sql) => db.prepare(sql)));
  }
}

/** Loads every table of the backup into `db` and checks each table's row count against the manifest. */
export async function loadRows(
  db: Database,
  folder: string,
  manifest: Manifest,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  const { results: triggers } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    .all<{ name: string; sql: string }>();
  if (triggers.length) await db.batch(triggers.map((t) => db.prepare(`DROP TRIGGER ${ident(t.name)}`)));

  const names = manifest.tables.map((t) => t.name);
  const order = await parentsFirst(db, names);
  // Children first: the rows the migrations wrote give way to the backup's.
  await inBatches(
    db,
    [...order].reverse().map((t) => `DELETE FROM ${ident(t)}`),
  );
  const inserts: string[] = [];
  for (const name of order) {
    const entry = manifest.tables.find((t) => t.name === name)!;
    const statements = await tableStatements(folder, entry.file);
    if (statements.length !== entry.rows) throw new Error(`${entry.file}: ${statements.length} rader, manifestet sier ${entry.rows}`);
    inserts.push(...statements);
  }
  await inBatches(db, inserts);

  await db.batch([...searchIndexRebuild(), ...triggers.map((t) => t.sql)].map((sql) => db.prepare(sql)));

  const counts = await db.batch(names.map((t) => db.prepare(`SELECT COUNT(*) AS n FROM ${ident(t)}`)));
  names.forEach((name, i) => {
    const n = (counts[i] as { results: { n: number }[] }).results[0].n;
    const expected = manifest.tables[i].rows;
    if (n !== expected) throw new Error(`${name} har ${n} rader etter gjenopprettingen, sikkerhetskopien ${expected}`);
  });
  // Every listing in each of the five indexes, or search would miss what the listings page shows.
  const indexed = await db
    .prepare(
      "SELECT (SELECT COUNT(*) FROM listing_search_map) AS map, (SELECT COUNT(*) FROM listings_fts) AS a, (SELECT COUNT(*) FROM listings_fts_trigram) AS b, (SELECT COUNT(*) FROM listings_title_trigram) AS c, (SELECT COUNT(*) FROM listings_stems) AS d, (SELECT COUNT(*) FROM listings_words) AS e",
    )
    .first<{ map: number; a: number; b: number; c: number; d: number; e: number }>();
  if (!indexed || [indexed.a, indexed.b, indexed.c, indexed.d, indexed.e].some((n) => n !== indexed.map)) {
    throw new Error(`Søkeindeksen ble ikke komplett: ${JSON.stringify(indexed)}`);
  }
  log(
    `D1: ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rader i ${names.length} tabeller; søkeindeksen skrevet for ${indexed.map} annonser`,
  );
}
