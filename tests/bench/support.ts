// What every benchmark shares, in one place:
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
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { signAccessToken } from "../../worker/lib/jwt";
import { binPath, toolEnv } from "../../scripts/local-env.mjs";
import type { BenchListing } from "./listing-generator";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/** The project's tool environment (offline, no metrics, no prompts), as scripts/start.mjs runs its tools. */
export const benchEnv = toolEnv({ CI: "true", NO_COLOR: "1", NO_D1_WARNING: "true" });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run a tool from node_modules/.bin; throws with its output on failure. */
export function runTool(cmd: string, args: string[]): void {
  const res = spawnSync(binPath(cmd), args, { cwd: ROOT, env: benchEnv, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr}\n${res.stdout}`);
}

const hasBuild = () => existsSync(path.join(ROOT, "dist/client/index.html"));

/**
 * `vite build` when dist/ is missing, or with `fresh` (benchmarks that time the pages themselves)
 * unless SKIP_BUILD=1; the server then starts with SKIP_BUILD=1.
 */
export function ensureBuild({ fresh = false }: { fresh?: boolean } = {}): void {
  if (!hasBuild() || (fresh && process.env.SKIP_BUILD !== "1")) runTool("vite", ["build"]);
}

// ---- the bench D1 ---------------------------------------------------------------------------------

/**
 * A fresh state directory with the migrations applied. With `demoData: false` the start script is
 * told the demo data is done (the benchmark writes its own rows into the D1 file first).
 */
export function freshState(stateDir: string, { demoData }: { demoData: boolean }): void {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  runTool("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir, "-c", "wrangler.toml"]);
  if (!demoData) skipDemoData(stateDir);
}

/** Tell scripts/start.mjs the demo data is loaded, so it leaves the bench's own rows alone. */
export function skipDemoData(stateDir: string): void {
  writeFileSync(path.join(stateDir, "lekebytte-seed.json"), JSON.stringify({ skipped: true, bench: true }));
}

/** The local D1 database file wrangler keeps under a state directory. */
export function d1File(stateDir: string): string {
  const dir = path.join(stateDir, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return path.join(dir, file);
}

/**
 * Bench rows written straight into a state directory's D1 file, in one transaction (committed and
 * ANALYZEd by close()). `bulk`: no fsync and a large page cache, for loading hundreds of thousands
 * of rows. `db` is open for a benchmark's own statements inside the same transaction.
 */
export class BenchDb {
  readonly db: DatabaseSync;
  private readonly now = new Date().toISOString();
  private readonly expires = new Date(Date.now() + 86_400_000).toISOString();
  private users = 0;
  /** user id → session family id, for mintAccessTokens. */
  readonly families = new Map<string, string>();
  private readonly stmt;

  constructor(stateDir: string, { bulk = false }: { bulk?: boolean } = {}) {
    this.db = new DatabaseSync(d1File(stateDir));
    if (bulk) {
      this.db.exec("PRAGMA synchronous = OFF");
      this.db.exec("PRAGMA cache_size = -1000000");
    }
    this.db.exec("BEGIN");
    this.stmt = {
      user: this.db.prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at) VALUES (?, ?, ?, ?)"),
      profile: this.db.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?, ?)"),
      session: this.db.prepare("INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)"),
      listing: this.db.prepare(
        `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free, is_trade_offer,
           postal_code, images, status, is_hidden, seo_slug, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      conversation: this.db.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq) VALUES (?, ?, ?, ?, 0)"),
      tradeOffer: this.db.prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, status, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ),
    };
  }

  /**
   * A confirmed user with a profile and, unless `session: false`, a live session family (for a
   * minted cookie). `passwordHash` "!" can never sign in; `id` fixes the user's id.
   */
  user(
    prefix: string,
    { id = randomUUID(), passwordHash = "!", session = true }: { id?: string; passwordHash?: string; session?: boolean } = {},
  ): { id: string; email: string } {
    const email = `${prefix}-${++this.users}@lekebytte.test`;
    this.stmt.user.run(id, email, passwordHash, this.now);
    this.stmt.profile.run(id, `Bruker ${this.users}`);
    if (session) {
      const family = randomUUID();
      this.stmt.session.run(randomUUID(), id, family, randomBytes(32).toString("hex"), this.expires);
      this.families.set(id, family);
    }
    return { id, email };
  }

  /** A listing row; production's triggers fill its search and full-text rows as for any insert. */
  listing(l: BenchListing): void {
    this.stmt.listing.run(
      l.id,
      l.user_id,
      l.title,
      l.description,
      l.category,
      l.age_range,
      l.condition_rating,
      l.price,
      l.is_free,
      l.is_trade_offer,
      l.postal_code,
      l.images,
      l.status,
      l.is_hidden,
      l.seo_slug,
      l.created_at,
      l.updated_at,
    );
  }

  conversation(listingId: string, buyerId: string, sellerId: string): string {
    const id = randomUUID();
    this.stmt.conversation.run(id, listingId, buyerId, sellerId);
    return id;
  }

  /** A pending trade offer: `fromId` offers `offeredId` for `toId`'s `requestedId`, in the conversation about the latter. */
  tradeOffer(conversationId: string, fromId: string, toId: string, offeredId: string, requestedId: string): string {
    const id = randomUUID();
    this.stmt.tradeOffer.run(
      id,
      conversationId,
      fromId,
      toId,
      offeredId,
      requestedId,
      this.now,
      this.now,
      new Date(Date.now() + 7 * 86_400_000).toISOString(),
    );
    return id;
  }

  close(): void {
    this.db.exec("COMMIT");
    this.db.exec("ANALYZE");
    this.db.close();
  }
}

/** A plain active listing of `userId` (for chats, trades and sales), in the generator's row shape. */
export function simpleListing(userId: string, title: string, extra: Partial<BenchListing> = {}): BenchListing {
  const id = randomUUID();
  const now = new Date().toISOString();
  return {
    id,
    user_id: userId,
    title,
    description: "",
    category: "lego",
    age_range: "3-5 år",
    condition_rating: 4,
    price: 100,
    is_free: 0,
    is_trade_offer: 0,
    postal_code: "0150",
    images: "[]",
    status: "active",
    is_hidden: 0,
    seo_slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id.slice(0, 6)}`,
    created_at: now,
    updated_at: now,
    ...extra,
  };
}

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

// ---- the app server -------------------------------------------------------------------------------

/** What the benchmarks read of one process in /proc/<pid>/stat (CPU times in clock ticks). */
export interface ProcStat {
  pid: number;
  name: string;
  ppid: number;
  pgrp: number;
  utime: number;
  stime: number;
  /** Children it has reaped count in their parent. */
  cutime: number;
  cstime: number;
}

/** Every process now (Linux only: /proc); one that ends while we look is left out. */
export function procStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After "(comm) ": state, ppid, pgrp, …; utime, stime, cutime, cstime are fields 14–17 of the line.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push({
        pid: Number(entry),
        name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        ppid: Number(f[1]),
        pgrp: Number(f[2]),
        utime: Number(f[11]),
        stime: Number(f[12]),
        cutime: Number(f[13]),
        cstime: Number(f[14]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Process groups started directly below `pid` (start.mjs runs wrangler, and so workerd, in its own group). */
function childGroups(pid: number): number[] {
  return procStats()
    .filter((p) => p.ppid === pid && p.pgrp === p.pid)
    .map((p) => p.pid);
}

/** `npm start`'s server on its own port and state directory, started, stopped and killed by this process only. */
export class AppServer {
  readonly base: string;
  /** APP_ORIGIN as scripts/start.mjs sets it (the same-origin checks compare Origin with it). */
  readonly origin: string;
  /** More environment for the start script and what it starts (the payment sandbox reads PAYMENT_SANDBOX_*). */
  readonly env: Record<string, string> = {};
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

  /**
   * The server of the benchmark `name`: state in .bench/<name>-state, log in .bench/<name>-server.log,
   * port BENCH_PORT (else `defaultPort`), payment sandbox on BENCH_SANDBOX_PORT (else
   * `defaultSandboxPort`, else start.mjs's PORT + 30).
   */
  static forBench(name: string, defaultPort: number, defaultSandboxPort?: number): AppServer {
    const sandbox = process.env.BENCH_SANDBOX_PORT ?? defaultSandboxPort;
    return new AppServer(
      Number(process.env.BENCH_PORT ?? defaultPort),
      path.join(ROOT, `.bench/${name}-state`),
      path.join(ROOT, `.bench/${name}-server.log`),
      sandbox ? Number(sandbox) : undefined,
    );
  }

  /** The payment sandbox's base URL (start.mjs's default port when none was given). */
  get sandboxBase(): string {
    return `http://127.0.0.1:${this.sandboxPort ?? this.port + 30}`;
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
        SKIP_BUILD: hasBuild() ? "1" : "0",
        ...(this.sandboxPort ? { PAYMENT_SANDBOX_PORT: String(this.sandboxPort) } : {}),
        ...this.env,
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

  /** Until /api/config answers 2xx; a request that arrives while wrangler is still starting can hang, so each gets 5 s. */
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

  /** The last lines of the server's log (for an error report). */
  logTail(lines = 30): string {
    try {
      return readFileSync(this.logFile, "utf8").split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }

  /** The server's processes called `name` (for example workerd, whose inspector bench:load profiles). */
  pidsNamed(name: string): number[] {
    const pid = this.child?.pid;
    if (!pid) return [];
    const groups = new Set([pid, ...childGroups(pid)]);
    return procStats()
      .filter((p) => groups.has(p.pgrp) && p.name === name)
      .map((p) => p.pid);
  }

  /** CPU seconds used so far by every process in the server's groups (start script, wrangler, workerd). */
  cpuSeconds(byName?: Map<string, number>): number {
    const pid = this.child?.pid;
    if (!pid) return 0;
    const groups = new Set([pid, ...childGroups(pid)]);
    const tick = 100; // USER_HZ on Linux
    let total = 0;
    for (const p of procStats()) {
      if (!groups.has(p.pgrp)) continue;
      const cpu = (p.utime + p.stime) / tick;
      total += cpu;
      byName?.set(p.name, (byName.get(p.name) ?? 0) + cpu);
    }
    return total;
  }
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
