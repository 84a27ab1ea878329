// "Nothing changed" for worker tests (docs/security.md: a refusal changes no D1 row and no R2 object):
// every table's row count and content (one string per table, built in SQL) and the objects of both
// R2 buckets. Triggers counting writes would be cheaper, but D1 counts a trigger's writes in
// `meta.changes`, which the app's conditional updates check (docs/decisions/060).
import { env } from "cloudflare:workers";

/**
 * Records of attempts, not state: rate-limit windows count refused attempts too (that is what limits
 * probing), and the operator's page counts refused webhooks and keeps unexpected errors (decision 134).
 */
const NOT_STATE = new Set(["rate_limits", "webhook_refusals", "request_errors"]);

interface Checksum {
  table: string;
  sql: string;
}

let checksums: Checksum[] | null = null;

async function checksumStatements(): Promise<Checksum[]> {
  const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all<{ name: string; sql: string }>();
  const virtual = results.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const tables = results
    .map((t) => t.name)
    .filter(
      (name) => !/^(sqlite_|_cf_|d1_)/.test(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)) && !NOT_STATE.has(name),
    );
  const out: Checksum[] = [];
  for (const table of tables) {
    const { results: columns } = await env.DB.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>();
    const row = columns.map((c) => `quote("${c.name}")`).join(" || ',' || ");
    // Mail from an earlier test's success (chat alarms, trade notices, sent after the answer) may
    // land at any time: with `since`, only mail to people created from then on counts.
    const where = table === "dev_outbox" ? " WHERE ?1 = '' OR to_address IN (SELECT email FROM users WHERE created_at >= ?1)" : "";
    out.push({ table, sql: `SELECT COUNT(*) AS n, group_concat(${row}, '|') AS content FROM "${table}"${where}` });
  }
  return out;
}

async function r2Keys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ cursor });
    keys.push(...listed.objects.map((o) => `${o.key}@${o.etag}`));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

export interface StoredState {
  tables: Record<string, { n: number; content: string | null }>;
  images: string[];
  private: string[];
}

/** Everything stored now. `since` (ISO time) limits the outbox to mail for people created from then on. */
export async function storedState(since = ""): Promise<StoredState> {
  checksums ??= await checksumStatements();
  const list = checksums;
  const results = await env.DB.batch(list.map((c) => (c.sql.includes("?1") ? env.DB.prepare(c.sql).bind(since) : env.DB.prepare(c.sql))));
  return {
    tables: Object.fromEntries(results.map((r, i) => [list[i].table, r.results[0] as { n: number; content: string | null }])),
    images: await r2Keys(env.IMAGES),
    private: await r2Keys(env.PRIVATE),
  };
}

/** What differs between two states, e.g. ["D1 listings: a row changed", "R2 IMAGES"]; empty when nothing. */
export function stateChanges(before: StoredState, after: StoredState): string[] {
  const diffs: string[] = [];
  for (const [table, b] of Object.entries(before.tables)) {
    const a = after.tables[table];
    if (a.n !== b.n) diffs.push(`D1 ${table}: ${b.n} → ${a.n} rows`);
    else if (a.content !== b.content) diffs.push(`D1 ${table}: a row changed`);
  }
  if (after.images.join() !== before.images.join()) diffs.push("R2 IMAGES");
  if (after.private.join() !== before.private.join()) diffs.push("R2 PRIVATE");
  return diffs;
}
