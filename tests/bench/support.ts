// What every benchmark shares, imported from this one module:
//   - the app server: `npm start`'s script (scripts/start.mjs) on the benchmark's own port, payment
//     sandbox port and state directory, in a process group of its own; waited for, stopped with
//     SIGTERM or killed with SIGKILL (only the groups this process started), its CPU time;
//   - the bench D1: a fresh state directory with the migrations applied, and the bench rows (users
//     with a session family, listings, conversations, trade offers) written straight into its SQLite
//     file before the server starts, in one transaction;
//   - access cookies minted with the app's own JWT code and the local secret, as a sign-in mints them;
//   - percentiles and the machine's load average for the reports.
// Ports: BENCH_PORT (each benchmark has its own default) and BENCH_SANDBOX_PORT (default: start.mjs's
// PORT + 30).
// The parts: support-tools.ts (the project and its tools), support-db.ts (the bench D1),
// support-server.ts (the app server); the access cookies and the figures are here.
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { signAccessToken } from "../../worker/lib/jwt";
import { ROOT } from "./support-tools";

export { AppServer, type ProcStat, procStats } from "./support-server";
export { BenchDb, d1File, freshState, simpleListing, skipDemoData } from "./support-db";
export { ROOT, benchEnv, ensureBuild, runTool, sleep } from "./support-tools";

// ---- access cookies -------------------------------------------------------------------------------

/** The local JWT secret from .dev.vars (created from .dev.vars.example as `npm start` does). */
export function localJwtSecret(): string {
  const devVars = path.join(ROOT, ".dev.vars");
  if (!existsSync(devVars)) copyFileSync(path.join(ROOT, ".dev.vars.example"), devVars);
  const match = /^JWT_SECRET\s*=\s*"?([^"\n]*)"?/m.exec(readFileSync(devVars, "utf8"));
  return match?.[1] ?? "";
}

/** Access cookies minted with the app's own JWT code, as a sign-in would mint them (user id → family id). */
export async function mintAccessTokens(families: Map<string, string>): Promise<Map<string, string>> {
  const secret = localJwtSecret();
  const tokens = new Map<string, string>();
  for (const [userId, family] of families) {
    tokens.set(userId, (await signAccessToken({ JWT_SECRET: secret, APP_ENV: "local" } as never, userId, family)).token);
  }
  return tokens;
}

// ---- figures --------------------------------------------------------------------------------------

/** Nearest-rank percentile (p in 0–100); NaN for no values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** The machine's 1-minute load average, sampled during a run (other builds share these cores). */
export class LoadSampler {
  private samples: number[] = [];
  private timer: NodeJS.Timeout | null = null;

  start(everyMs = 5_000): void {
    this.samples = [os.loadavg()[0]];
    this.timer = setInterval(() => this.samples.push(os.loadavg()[0]), everyMs);
  }

  stop(): { min: number; max: number; mean: number } {
    if (this.timer) clearInterval(this.timer);
    this.samples.push(os.loadavg()[0]);
    const mean = this.samples.reduce((a, b) => a + b, 0) / this.samples.length;
    return { min: Math.min(...this.samples), max: Math.max(...this.samples), mean };
  }
}

export const cores = () => os.cpus().length;
