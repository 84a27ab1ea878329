// Run by tests/scripts/migrate.test.ts in a process of its own (wrangler does not load inside jsdom):
//   apply-migrations.ts <stateDir> <folder>…
// applies each folder's migrations in turn with scripts/migrate.ts, in one local runtime, and prints
// as JSON wrangler.toml's project settings and, per folder, what it applied or the error's message.
import path from "node:path";
import { localBindings, readProjectConfig } from "../../../scripts/local-bindings";
import { OFFLINE_ENV } from "../../../scripts/local-env.mjs";
import { type MigratingDb, applyMigrations } from "../../../scripts/migrate";

const [stateDir, ...folders] = process.argv.slice(2);
for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;
const bindings = await localBindings<{ DB: MigratingDb }>(path.join(stateDir, "v3"), { d1: true });
const results: ({ applied: string[] } | { error: string })[] = [];
try {
  for (const folder of folders) {
    results.push(
      await applyMigrations(bindings.env.DB, folder).then(
        (applied) => ({ applied }),
        (error: Error) => ({ error: error.message }),
      ),
    );
  }
} finally {
  await bindings.dispose();
}
console.log(JSON.stringify({ project: await readProjectConfig(), results }));
