// Whether the machine was busy while the page-speed bench measured: the thresholds, each run's
// reasons, the CPU that processes outside the bench used (from /proc), and a run's Chromium stopped
// with all of its processes.
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import type * as chromeLauncher from "chrome-launcher";
import { procStats } from "./support";

/**
 * When a result counts as measured on a busy machine. The load average cannot say it during the
 * runs: the bench's own server and Chromium keep it at 1.6–3.4 on an otherwise idle 2-core machine,
 * so every run of the quiet issue-23 measurement was flagged. Three signals instead:
 * - `machineLoad`: the 1-minute load average when the bench starts, before it builds or starts
 *   anything: the machine's own state. Above 1.0 (one of the two cores taken by other work over
 *   the last minute) the whole result is busy.
 * - `otherCores`: during each run, the CPU that processes outside the bench took (the whole
 *   machine's busy time from /proc/stat less this process and all its descendants: the app's
 *   server, wrangler, workerd, Chromium), in cores. Above 0.25 the run is busy.
 * - `benchmarkIndex`: Lighthouse's CPU microbenchmark (single-threaded, in the page's Chromium
 *   before the page loads) was 2,820–2,860 in three of four runs on this machine. It is recorded for
 *   every run but marks one busy (below 80 % of that) only where /proc cannot tell the other
 *   processes' CPU: in the quiet run of 2026-11-26 15:00Z (other processes 0.00–0.04 cores in all
 *   45 runs) it still ranged 1,640–2,843, since it shares its first second with the bench's own
 *   Chromium starting up.
 */
export const QUIET_INDEX = Number(process.env.BENCH_QUIET_INDEX ?? 2850);
export const BUSY = { machineLoad: 1.0, otherCores: 0.25, benchmarkIndex: Math.round(QUIET_INDEX * 0.8) };

/** What the machine was doing around one Lighthouse run. */
export interface Machine {
  /** Lighthouse's CPU microbenchmark, run in the page's Chromium before the page loads (lhr.environment). */
  benchmarkIndex: number;
  /** os.loadavg() (1, 5 and 15 minutes) right before Chromium starts and right after the run (for the record: the bench's own work is in it). */
  loadStart: number[];
  loadEnd: number[];
  /** Cores used by processes outside the bench during the run (null where /proc is not there). */
  otherCores: number | null;
  /** Why this run counts as measured on a busy machine (empty: quiet). */
  busy: string[];
}

/** Why a run counts as measured on a busy machine (empty: quiet). */
export function busyReasons(m: Omit<Machine, "busy">): string[] {
  const out: string[] = [];
  if (m.otherCores !== null && m.otherCores > BUSY.otherCores)
    out.push(`other processes used ${m.otherCores.toFixed(2)} cores > ${BUSY.otherCores}`);
  if (m.otherCores === null && m.benchmarkIndex < BUSY.benchmarkIndex)
    out.push(`benchmarkIndex ${Math.round(m.benchmarkIndex)} < ${BUSY.benchmarkIndex}`);
  return out;
}

/** Clock ticks: the whole machine's (all cores) and its busy part, and this process with all its descendants. */
export interface CpuSample {
  total: number;
  busy: number;
  ours: number;
}

/** Every process's parent and CPU ticks (itself and the children it has reaped), from /proc. */
function processTree(): Map<number, { ppid: number; ticks: number }> {
  return new Map(procStats().map((p) => [p.pid, { ppid: p.ppid, ticks: p.utime + p.stime + p.cutime + p.cstime }]));
}

/** `root` and every process below it. */
function descendants(root: number, tree: Map<number, { ppid: number }>): Set<number> {
  const ours = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of tree)
      if (!ours.has(pid) && ours.has(p.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  return ours;
}

/** Linux only (/proc); elsewhere null and only the benchmarkIndex marks a run. */
export function cpuSample(): CpuSample | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    const busy = total - fields[3] - fields[4]; // less idle and iowait
    const tree = processTree();
    let ourTicks = 0;
    for (const pid of descendants(process.pid, tree)) ourTicks += tree.get(pid)?.ticks ?? 0;
    return { total, busy, ours: ourTicks };
  } catch {
    return null;
  }
}

/**
 * Stop a run's Chromium and wait until all of its processes are gone. Killed, its helper processes
 * are re-parented to init: one still alive when the next run starts counts as ours then and not at
 * that run's end, and its whole CPU time was read as other processes' work (0.3–0.5 cores in every
 * other run on a quiet machine, before this wait).
 */
export async function stopChrome(chrome: chromeLauncher.LaunchedChrome): Promise<void> {
  const tree = existsSync("/proc/self") && chrome.pid ? descendants(chrome.pid, processTree()) : new Set<number>();
  chrome.kill();
  const deadline = Date.now() + 5_000;
  while ([...tree].some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The cores that processes outside the bench kept busy between two samples. */
export function otherCores(start: CpuSample | null, end: CpuSample | null): number | null {
  if (!start || !end || end.total <= start.total) return null;
  const other = end.busy - start.busy - (end.ours - start.ours);
  return Math.max(0, (other / (end.total - start.total)) * os.cpus().length);
}

export const BUSY_RULE =
  `busy means a 1-minute load average above ${BUSY.machineLoad} before the bench started anything, or a run during which ` +
  `processes outside the bench used more than ${BUSY.otherCores} cores (where /proc cannot tell that: whose benchmarkIndex was below ${BUSY.benchmarkIndex}, 80 % of the quiet ${QUIET_INDEX})`;
