// The pieces every benchmark that drives `npm start`'s server shares: a fresh local D1 in its own
// state directory (migrated, demo data skipped or loaded), the server started exactly as `npm start`
// starts it (scripts/start.mjs in a process group of its own, own PORT and STATE_DIR), stopped with
// SIGTERM or killed with SIGKILL (only the groups this process started), its CPU time, the local JWT
// secret for minting session cookies, percentiles and the machine's load average for the report.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { signAccessToken } from "../../worker/lib/jwt";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const benchEnv = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run a tool from node_modules/.bin (npm scripts have it on PATH); throws with its output on failure. */
export function runTool(cmd: string, args: string[]): void {
  const res = spawnSync(cmd, args, { cwd: ROOT, env: benchEnv, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr}\n${res.stdout}`);
}

/** `vite build` once, when dist/ is missing (the server then starts with SKIP_BUILD=1). */
export function ensureBuild(): void {
  if (!existsSync(path.join(ROOT, "dist/client/index.html"))) runTool("vite", ["build"]);
}

/**
 * A fresh state directory with the migrations applied. With `demoData: false` the start script is
 * told the demo data is done (the benchmark writes its own rows into the D1 file first).
 */
export function freshState(stateDir: string, { demoData }: { demoData: boolean }): void {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  runTool("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir, "-c", "wrangler.toml"]);
  if (!demoData) writeFileSync(path.join(stateDir, "lekebytte-seed.json"), JSON.stringify({ skipped: true, bench: true }));
}

/** The local D1 database file wrangler keeps under a state directory. */
export function d1File(stateDir: string): string {
  const dir = path.join(stateDir, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return path.join(dir, file);
}

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

/** Process groups started directly below `pid` (start.mjs runs wrangler, and so workerd, in its own group). */
function childGroups(pid: number): number[] {
  const groups = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && Number(fields[2]) === Number(entry)) groups.add(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [...groups];
}

/** `npm start`'s server on its own port and state directory, started, stopped and killed by this process only. */
export class AppServer {
  readonly base: string;
  /** APP_ORIGIN as scripts/start.mjs sets it (the same-origin checks compare Origin with it). */
  readonly origin: string;
  private child: ChildProcess | null = null;

  /** `sandboxPort`: the offline payment sandbox `npm start` runs beside the app (its default is PORT + 30). */
  constructor(
    readonly port: number,
    readonly stateDir: string,
    readonly logFile: string,
    readonly sandboxPort?: number,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.origin = `http://localhost:${port}`;
    process.on("exit", () => this.signal("SIGTERM"));
  }

  start(): void {
    mkdirSync(path.dirname(this.logFile), { recursive: true });
    const log = openSync(this.logFile, "a");
    this.child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      detached: true, // its own process group; wrangler runs in a group of its own below it
      stdio: ["ignore", log, log],
      env: {
        ...benchEnv,
        PORT: String(this.port),
        STATE_DIR: this.stateDir,
        SKIP_BUILD: existsSync(path.join(ROOT, "dist/client/index.html")) ? "1" : "0",
        ...(this.sandboxPort ? { PAYMENT_SANDBOX_PORT: String(this.sandboxPort) } : {}),
      },
    });
  }

  /** Signal only what this benchmark started: wrangler's group (with workerd), then the start script's. */
  signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    for (const group of childGroups(pid)) {
      try {
        process.kill(-group, signal);
      } catch {
        /* already gone */
      }
    }
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  }

  /** SIGTERM, then SIGKILL after 10 s; resolves when every process of the server has exited. */
  async stop(): Promise<void> {
    await this.end("SIGTERM");
  }

  /** SIGKILL to every process group of the server, as a crash or a power cut would stop it. */
  async kill(): Promise<void> {
    await this.end("SIGKILL");
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const groups = [child.pid, ...childGroups(child.pid)];
    const alive = (g: number) => {
      try {
        process.kill(-g, 0);
        return true;
      } catch {
        return false;
      }
    };
    this.signal(signal);
    const timer = setTimeout(() => groups.forEach((g) => alive(g) && process.kill(-g, "SIGKILL")), 10_000);
    // Until the last process of those groups is gone (workerd holds the SQLite files open).
    while (groups.some(alive)) await sleep(20);
    clearTimeout(timer);
  }

  async waitUntilReady(ms = 240_000): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.child && (this.child.exitCode !== null || this.child.signalCode !== null)) {
        throw new Error(`the app exited early; see ${path.relative(ROOT, this.logFile)}`);
      }
      try {
        const res = await fetch(`${this.base}/api/config`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        /* not up yet */
      }
      await sleep(250);
    }
    throw new Error(`${this.base} did not answer within ${ms / 1000} s`);
  }

  /** CPU seconds used so far by every process in the server's groups (start script, wrangler, workerd). */
  cpuSeconds(byName?: Map<string, number>): number {
    const pid = this.child?.pid;
    if (!pid) return 0;
    const groups = new Set([pid, ...childGroups(pid)]);
    const tick = 100; // USER_HZ on Linux
    let total = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (!groups.has(Number(f[2]))) continue;
        const cpu = (Number(f[11]) + Number(f[12])) / tick;
        total += cpu;
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        byName?.set(name, (byName.get(name) ?? 0) + cpu);
      } catch {
        // gone meanwhile
      }
    }
    return total;
  }
}

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
