// The repository's source files the checks read (tracked and new, not ignored): code only, without
// migrations (history) and the generated worker-configuration.d.ts. Each with its text.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const CODE = /\.(ts|tsx|mts|mjs|js|css|html)$/;

/** @param {string[]} [except] more paths to leave out */
export function sourceFiles(except = []) {
  const skip = new Set(["worker-configuration.d.ts", ...except]);
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  const files = [];
  for (const file of listed.split("\n")) {
    if (!CODE.test(file) || file.startsWith("migrations/") || skip.has(file)) continue;
    try {
      files.push({ file, text: readFileSync(path.join(root, file), "utf8") });
    } catch {
      // deleted in the work tree, not yet in the index
    }
  }
  return files;
}
