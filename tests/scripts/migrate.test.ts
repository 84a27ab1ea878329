// scripts/migrate.ts (`npm run db:migrate`, `npm start`, the restore): it must leave a local database
// exactly as `wrangler d1 migrations apply --local` does, so either tool can take over from the other,
// and a migration that fails must leave nothing of itself behind.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import type { ProjectConfig } from "../../scripts/local-bindings";
import { ROOT, binPath, toolEnv } from "../../scripts/local-env.mjs";
import { migrationFiles } from "../../scripts/migrate";
import { d1File } from "../bench/support-db";

const work = mkdtempSync(path.join(os.tmpdir(), "lekebytte-migrate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A migrations folder of its own with these files (name → SQL). */
function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, sql] of Object.entries(files)) writeFileSync(path.join(dir, file), sql);
  return dir;
}

type Outcome = { applied: string[] } | { error: string };

/** scripts/migrate.ts applying each folder in turn to `stateDir`: wrangler.toml's settings and each outcome. */
function apply(stateDir: string, ...folders: string[]): { project: ProjectConfig; results: Outcome[] } {
  const res = spawnSync(binPath("tsx"), [path.join(ROOT, "tests/scripts/support/apply-migrations.ts"), stateDir, ...folders], {
    env: toolEnv({ NO_COLOR: "1" }),
    encoding: "utf8",
  });
  expect(res.status, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

/** `wrangler d1 migrations apply DB --local` on `stateDir` with `migrationsDir`; its output. */
function wranglerApply(stateDir: string, migrationsDir: string, { name, compatibilityDate, d1 }: ProjectConfig): string {
  const config = path.join(migrationsDir, "..", `${path.basename(migrationsDir)}.wrangler.json`);
  writeFileSync(
    config,
    JSON.stringify({
      name,
      compatibility_date: compatibilityDate,
      d1_databases: [
        { binding: "DB", database_name: d1.databaseName, database_id: d1.databaseId, migrations_dir: path.basename(migrationsDir) },
      ],
    }),
  );
  const res = spawnSync(binPath("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir, "-c", config], {
    env: toolEnv({ CI: "true", NO_COLOR: "1" }),
    encoding: "utf8",
  });
  expect(res.status, res.stderr).toBe(0);
  return res.stdout;
}

/** The schema and the migration records of a state's D1 file, read with SQLite itself. */
function stored(stateDir: string) {
  const db = new DatabaseSync(d1File(stateDir));
  try {
    return {
      schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' ORDER BY name").all(),
      migrations: db.prepare("SELECT id, name FROM d1_migrations ORDER BY id").all(),
    };
  } finally {
    db.close();
  }
}

describe("scripts/migrate.ts", () => {
  it("leaves the database as wrangler's own apply does, and wrangler then finds nothing to apply", () => {
    const migrations = path.join(ROOT, "migrations");
    const first = migrationFiles(migrations).slice(0, 3);
    const dir = path.join(work, "first-three");
    mkdirSync(dir);
    for (const m of first) copyFileSync(path.join(migrations, m), path.join(dir, m));

    const ours = path.join(work, "ours");
    const { project: config, results } = apply(ours, dir);
    expect(config.d1.migrationsDir).toBe(migrations);
    expect(results).toEqual([{ applied: first }]);
    const theirs = path.join(work, "theirs");
    wranglerApply(theirs, dir, config);

    expect(stored(ours).schema.length).toBeGreaterThan(10);
    expect(stored(ours)).toEqual(stored(theirs));
    expect(wranglerApply(ours, dir, config)).toMatch(/No migrations to apply/);
  }, 120_000);

  it("applies only what is not recorded yet; a failing migration leaves nothing of itself behind and stops the rest", () => {
    const state = path.join(work, "failing");
    const good = { "0001_a.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY);\nINSERT INTO a (id) VALUES (1);" };
    const bad = { "0002_b.sql": "CREATE TABLE b (id INTEGER PRIMARY KEY);\nINSERT INTO finnes_ikke (id) VALUES (1);" };
    const later = { "0003_c.sql": "CREATE TABLE c (id INTEGER PRIMARY KEY);" };
    const fixed = { "0002_b.sql": "CREATE TABLE b (id INTEGER PRIMARY KEY);" };
    const [one, two, three] = [folder("one", good), folder("two", { ...good, ...bad, ...later }), folder("three", { ...good, ...fixed })];
    const { results } = apply(state, one, two);
    expect(results[0]).toEqual({ applied: ["0001_a.sql"] });
    expect(results[1]).toEqual({
      error: expect.stringMatching(/^Migreringen 0002_b\.sql feilet, og ingenting av den ble lagret: .*no such table: finnes_ikke/),
    });
    const after = stored(state);
    expect(after.migrations).toEqual([{ id: 1, name: "0001_a.sql" }]);
    expect(after.schema.map((s) => s.name)).toContain("a");
    expect(after.schema.map((s) => s.name)).not.toContain("b");
    expect(after.schema.map((s) => s.name)).not.toContain("c");

    expect(apply(state, three, three).results).toEqual([{ applied: ["0002_b.sql"] }, { applied: [] }]);
    expect(stored(state).migrations.map((m) => m.name)).toEqual(["0001_a.sql", "0002_b.sql"]);
  }, 120_000);
});
