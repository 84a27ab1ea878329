// Fails when a source file is over MAX_LINES lines: a file that long holds more than one thing, and
// the next engineer reads it whole. Migrations (history) and generated files are left out.
import { sourceFiles } from "./source-files.mjs";

export const MAX_LINES = 400;

const files = sourceFiles();
const failures = [];
for (const { file, text } of files) {
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  if (lines > MAX_LINES) failures.push(`${file}: ${lines} lines`);
}
if (failures.length > 0) {
  console.error(`${failures.join("\n")}\n\nFiles over ${MAX_LINES} lines: split each by what its parts do.`);
  process.exit(1);
}
console.log(`No file over ${MAX_LINES} lines (${files.length} files).`);
