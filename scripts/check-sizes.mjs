// Fails when a source file is over MAX_LINES lines: a file that long holds more than one thing, and
// the next engineer reads it whole. Migrations (history) and generated files are left out.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const MAX_LINES = 400;

const CODE = /\.(ts|tsx|mts|mjs|js|css|html)$/;
const GENERATED = new Set(["worker-configuration.d.ts"]);
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => CODE.test(f) && !f.startsWith("migrations/") && !GENERATED.has(f));

const failures = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), "utf8");
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  if (lines > MAX_LINES) failures.push(`${file}: ${lines} lines`);
}
if (failures.length > 0) {
  console.error(`${failures.join("\n")}\n\nFiles over ${MAX_LINES} lines: split each by what its parts do.`);
  process.exit(1);
}
console.log(`No file over ${MAX_LINES} lines (${files.length} files).`);
