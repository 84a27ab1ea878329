// `npm run backup` and `npm run restore` (scripts/backup/, docs/decisions/137), run as the scripts
// they are: the demo data in a fresh local state, backed up table by table through wrangler (the
// path a remote backup takes too), restored into another fresh state, and both states read back
// (tests/scripts/support/state-snapshot.ts): every table row for row, what the Worker's own search
// finds for a set of queries (a restore without the search index finds nothing), and every photo in
// R2 with its bytes and metadata.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, binPath, toolEnv } from "../../scripts/local-env.mjs";
import type { Manifest } from "../../scripts/backup/manifest";
import { SEARCHES } from "./support/searches";

interface Snapshot {
  tables: Record<string, unknown[]>;
  searches: { rows: { id: string }[]; total: number }[];
  objects: { key: string; size: number; etag: string; sha256: string }[];
}

const work = mkdtempSync(path.join(os.tmpdir(), "lekebytte-backup-"));
const original = path.join(work, "original");
const restored = path.join(work, "restored");

/** Runs a command in the project with STATE_DIR set; resolves with its exit code and output. */
function run(command: string, args: readonly string[], stateDir: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: toolEnv({ STATE_DIR: stateDir, CI: "true" }), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    // Decoded as one stream: a letter whose two bytes arrive in two chunks stays one letter.
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    // On close, once all output is read (exit can come first).
    child.on("close", (code) => resolve({ code: code ?? 1, out, err }));
  });
}

async function mustRun(command: string, args: readonly string[], stateDir: string): Promise<string> {
  const { code, out, err } = await run(command, args, stateDir);
  if (code !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} failed (${code}):\n${out}\n${err}`);
  return out;
}

const tsx = (script: string, ...args: string[]) => [binPath("tsx"), [path.join(ROOT, script), ...args]] as const;

describe("npm run backup, then npm run restore into a fresh state", () => {
  let folder: string;
  let manifest: Manifest;
  let before: Snapshot;
  let after: Snapshot;

  beforeAll(async () => {
    await mustRun(...tsx("scripts/migrate.ts"), original);
    await mustRun(...tsx("scripts/seed.ts", "--quiet"), original);
    await mustRun(...tsx("scripts/backup.ts", "--out", path.join(work, "backups")), original);
    folder = path.join(work, "backups", readdirSync(path.join(work, "backups"))[0]);
    manifest = JSON.parse(readFileSync(path.join(folder, "manifest.json"), "utf8")) as Manifest;
    await mustRun(...tsx("scripts/restore.ts", folder), restored);
    const read = await mustRun(
      ...tsx("tests/scripts/support/state-snapshot.ts", path.join(folder, "manifest.json"), original, restored),
      original,
    );
    [before, after] = JSON.parse(read) as Snapshot[];
  }, 600_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("backs up every real table with its rows and the migration level, and leaves the search index out", () => {
    const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
    expect(rows.listings).toBeGreaterThan(30);
    expect(rows.listing_search_map).toBe(rows.listings);
    expect(rows.users).toBe(before.tables.users.length);
    expect(manifest.database.level).toBe(manifest.database.migrations.at(-1));
    expect(manifest.database.level).toMatch(/^\d{4}_\w+\.sql$/);
    expect(manifest.rebuilt).toEqual([
      "listings_fts",
      "listings_fts_trigram",
      "listings_stems",
      "listings_title_trigram",
      "listings_words",
    ]);
    expect(manifest.tables.filter((t) => t.name.startsWith("listings_fts") || t.name === "d1_migrations")).toEqual([]);
    const images = manifest.buckets.find((b) => b.binding === "IMAGES");
    expect(images).toMatchObject({ bodies: true, count: before.objects.length });
    expect(images?.objects.map((o) => [o.key, o.size, o.etag])).toEqual(before.objects.map((o) => [o.key, o.size, o.etag]));
  });

  it("restores every table row for row", () => {
    expect(Object.keys(after.tables)).toEqual(Object.keys(before.tables));
    for (const name of Object.keys(before.tables)) expect(after.tables[name], name).toEqual(before.tables[name]);
  });

  it("finds the same listings with the Worker's search", () => {
    after.searches.forEach((found, i) => expect(found, JSON.stringify(SEARCHES[i])).toEqual(before.searches[i]));
    // Equal because both find listings, not because both find nothing.
    expect(before.searches.filter((s) => s.rows.length > 0).length).toBeGreaterThanOrEqual(SEARCHES.length - 2);
  });

  it("puts every photo back with its bytes and metadata", () => {
    expect(after.objects.length).toBeGreaterThan(40);
    expect(after.objects).toEqual(before.objects);
  });

  it("refuses to restore into a state that already holds data", async () => {
    const { code, err } = await run(...tsx("scripts/restore.ts", folder), original);
    expect(code).toBe(1);
    expect(err).toMatch(/har allerede lokal data/);
    // A Node process and a look into the local state: seconds alone, more beside the e2e run.
  }, 120_000);
});
