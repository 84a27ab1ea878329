// Fails when a generated file has drifted from its source (decision 092), offline and in a few seconds:
// - worker-configuration.d.ts must be what `npm run cf-typegen` writes for wrangler.toml;
// - migrations/ must hold the migration for every change of the schema files (worker/db/schema.ts, worker/features/*/schema.ts) (drizzle-kit generate
//   into a copy adds nothing) and be consistent (drizzle-kit check).
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const failures = [];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`${path.basename(command)} ${args.join(" ")} failed (exit ${result.status})`);
  }
  return result.stdout;
}

// The generated file's second line names the command and the output path: compare everything else.
// The copy sits next to the original so its relative imports ("./worker/index") are the same.
const withoutHeader = (text) =>
  text
    .split("\n")
    .filter((_, i) => i !== 1)
    .join("\n");
const typesCopy = "worker-configuration.check.d.ts";
try {
  // The output path goes first: --env-file takes every value that follows it.
  run(bin("wrangler"), ["types", typesCopy, "--strict-vars=false", "--env-file", "/dev/null"]);
  const expected = withoutHeader(readFileSync(path.join(root, typesCopy), "utf8"));
  const actual = withoutHeader(readFileSync(path.join(root, "worker-configuration.d.ts"), "utf8"));
  if (expected !== actual)
    failures.push("worker-configuration.d.ts differs from `wrangler types`: run `npm run cf-typegen` and commit it.");
} finally {
  rmSync(path.join(root, typesCopy), { force: true });
}

// drizzle-kit wants a relative output folder.
const copy = path.join("node_modules", ".cache", "check-generated", "migrations");
rmSync(path.join(root, copy), { recursive: true, force: true });
cpSync(path.join(root, "migrations"), path.join(root, copy), { recursive: true });
run(bin("drizzle-kit"), [
  "generate",
  "--dialect",
  "sqlite",
  "--schema",
  "./worker/{db,features/*}/schema.ts",
  "--out",
  copy,
  "--prefix",
  "index",
]);
const listing = (dir) => readdirSync(path.join(root, dir), { recursive: true }).sort().join("\n");
const journal = (dir) => readFileSync(path.join(root, dir, "meta", "_journal.json"), "utf8");
if (listing(copy) !== listing("migrations") || journal(copy) !== journal("migrations")) {
  failures.push("The schema files have changes without a migration: run `npx drizzle-kit generate --name <name>` and commit it.");
}
rmSync(path.join(root, copy), { recursive: true, force: true });
run(bin("drizzle-kit"), ["check"]);

if (failures.length > 0) {
  for (const failure of failures) console.error(`✗ ${failure}`);
  process.exit(1);
}
console.log("Generated files match their sources (worker-configuration.d.ts, migrations/).");
