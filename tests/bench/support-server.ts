// The app server of a benchmark: `npm start`'s script (scripts/start.mjs) on the benchmark's own
// port, payment sandbox port and state directory, in a process group of its own; waited for,
// stopped with SIGTERM or killed with SIGKILL (only the groups this process started), its CPU time.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT, benchEnv, hasBuild, sleep } from "./support-tools";

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
