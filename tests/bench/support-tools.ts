// The project as the benchmarks run it: its root, the tool environment scripts/start.mjs runs its
// tools with (offline, no metrics, no prompts), a tool from node_modules/.bin, and dist/ built.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { binPath, toolEnv } from "../../scripts/local-env.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/** The project's tool environment (offline, no metrics, no prompts), as scripts/start.mjs runs its tools. */
export const benchEnv = toolEnv({ CI: "true", NO_COLOR: "1", NO_D1_WARNING: "true" });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run a tool from node_modules/.bin; throws with its output on failure. */
export function runTool(cmd: string, args: string[], env: Record<string, string> = {}): void {
  const res = spawnSync(binPath(cmd), args, { cwd: ROOT, env: { ...benchEnv, ...env }, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr}\n${res.stdout}`);
}

export const hasBuild = () => existsSync(path.join(ROOT, "dist/client/index.html"));

/**
 * `vite build` when dist/ is missing, or with `fresh` (benchmarks that time the pages themselves)
 * unless SKIP_BUILD=1; the server then starts with SKIP_BUILD=1.
 */
export function ensureBuild({ fresh = false }: { fresh?: boolean } = {}): void {
  if (!hasBuild() || (fresh && process.env.SKIP_BUILD !== "1")) runTool("vite", ["build"]);
}
