// What production pays per request, measured on `npm start`'s local server (decision 111):
// - D1: round trips, statements and the rows D1 reports, from the server's local-mode counter
//   (GET /api/dev/d1-usage, worker/db/usage.ts), which counts every D1 call of the isolate — the
//   request's own, and the queue consumers' and Durable Object alarms' that it set off;
// - CPU: the on-CPU time (/proc/<pid>/task/*/schedstat, nanoseconds) of the one workerd process
//   whose inspector serves our Worker (wrangler's proxy runs in another workerd and is left out),
//   read before and after each request. workerd runs our Worker, and wrangler's D1 simulator (a
//   Durable Object in another isolate), on that process's one event-loop thread: an answer from the
//   edge cache asks D1 nothing, so its figure is our Worker's own; an answer that asked D1 also
//   carries the simulator's work for the statements it sent.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import type { D1Usage } from "../../worker/db/usage";

export type { D1Usage };

const ZERO: D1Usage = { roundTrips: 0, statements: 0, writeStatements: 0, statementsWithoutMeta: 0, rowsRead: 0, rowsWritten: 0 };

export function usageBetween(before: D1Usage, after: D1Usage): D1Usage {
  const out = { ...ZERO };
  for (const k of Object.keys(ZERO) as (keyof D1Usage)[]) out[k] = after[k] - before[k];
  return out;
}

export async function readUsage(base: string): Promise<D1Usage> {
  const res = await fetch(`${base}/api/dev/d1-usage`);
  if (!res.ok) throw new Error(`GET /api/dev/d1-usage answered ${res.status}`);
  return (await res.json()) as D1Usage;
}

/**
 * The counter once it has stopped moving (no change for `quietMs`): what the requests set off in the
 * background (the analytics queue's batch, a room's mirror alarm) is counted with them. At most `maxMs`.
 */
export async function settledUsage(base: string, quietMs = 1_500, maxMs = 20_000): Promise<D1Usage> {
  const until = Date.now() + maxMs;
  let last = await readUsage(base);
  let since = Date.now();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await readUsage(base);
    if (now.statements !== last.statements || now.roundTrips !== last.roundTrips) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return now;
  }
  return last;
}

// ---- the process that runs the Worker ---------------------------------------------------------------

/** TCP ports the process listens on (its socket fds matched against /proc/net/tcp in LISTEN state). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
        if (m) inodes.add(m[1]);
      } catch {
        /* closed meanwhile */
      }
    }
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 9 && f[3] === "0A" && inodes.has(f[9])) ports.push(Number.parseInt(f[1].split(":")[1], 16));
  }
  return ports;
}

/** On-CPU nanoseconds of every thread of the process so far (the kernel's schedstat, not 10 ms ticks). */
export function processCpuNs(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

/** The workerd process among `pids` that runs the app's Worker (its inspector lists `core:user:<name>`). */
export async function findWorkerProcess(pids: number[], worker = "lekebytte"): Promise<number> {
  for (const pid of pids) {
    for (const port of listeningPorts(pid)) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(1_000) });
        if (!res.ok) continue;
        const targets = (await res.json()) as { id: string }[];
        if (Array.isArray(targets) && targets.some((t) => t.id === `core:user:${worker}`)) return pid;
      } catch {
        /* not an inspector */
      }
    }
  }
  throw new Error(`no workerd process runs the Worker "${worker}" among ${pids.join(", ")}`);
}
