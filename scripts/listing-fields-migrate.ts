// `npm run listing-fields:migrate -- <name>`: the migrations for a change of the listing's declared
// fields (domain/listing-fields.ts) or of the search folding. First drizzle-kit's own for the columns
// of `listings` (when the schema changed), then `<name>_search`: listing_search_map's new filter
// columns and the search triggers, written by worker/features/search/fold-sql.ts. Add `--rebuild`
// after a change of the folding, to refill the text indexes from every listing.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { listingAttributes } from "../domain/listing-fields";
import { SEARCH_INDEX_MARKER, searchIndexStatements } from "../worker/features/search/fold-sql";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "migrations");
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith("--"));
const rebuild = args.includes("--rebuild");
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run listing-fields:migrate -- <name, a-z 0-9 _> [--rebuild]");
  process.exit(1);
}

const drizzle = (extra: string[]) =>
  execFileSync(path.join(root, "node_modules", ".bin", "drizzle-kit"), ["generate", ...extra], { cwd: root, stdio: "inherit" });
const sqlFiles = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();

drizzle(["--name", name]);

// What listing_search_map holds once every migration so far has run.
const db = new DatabaseSync(":memory:");
for (const file of sqlFiles())
  for (const statement of readFileSync(path.join(dir, file), "utf8").split("--> statement-breakpoint"))
    if (statement.trim()) db.exec(statement);
const mapColumns = new Set((db.prepare("PRAGMA table_info(listing_search_map)").all() as { name: string }[]).map((c) => c.name));
const newColumns = listingAttributes()
  .map((a) => a.key)
  .filter((k) => !mapColumns.has(k));

const before = new Set(sqlFiles());
drizzle(["--custom", "--name", `${name}_search`]);
const file = sqlFiles().find((f) => !before.has(f));
if (!file) throw new Error("drizzle-kit wrote no custom migration");
const header = [
  `${SEARCH_INDEX_MARKER} from domain/listing-fields.ts and domain/search.ts: the search`,
  `-- triggers for the listing's declared fields${newColumns.length ? ` (new filter columns: ${newColumns.join(", ")})` : ""}${rebuild ? ", and the text indexes refilled" : ""}.`,
];
writeFileSync(path.join(dir, file), `${header.join("\n")}\n${searchIndexStatements({ newColumns, rebuild })}`);
console.log(`Wrote migrations/${file}`);
