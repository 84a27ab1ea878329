#!/usr/bin/env node
// `npm test`: every stage CI runs. Stages run in order, except that a stage marked `background`
// starts and the run goes on with the next stages beside it: the Worker tests keep about one and a
// half of the two cores busy, so the short stages and the web tests fill the rest (decision 100).
// A stage marked `alone` first waits for every background stage. The first stage that fails stops
// the run (the others still running are stopped) with its exit code, and the table of stage times
// prints either way, with the wall-clock total. A background stage's output is held back and printed
// whole when it ends, so the logs of two stages never interleave. To add a stage, add a row.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** @type {import("./test-all.d.mts").Stage[]} */
export const STAGES = [
  { name: "chromium", command: ["node", "scripts/chromium.mjs"] },
  { name: "worker", command: ["npm", "run", "test:worker"], background: true },
  { name: "check", command: ["npm", "run", "check"] },
  { name: "typecheck", command: ["npm", "run", "typecheck"] },
  { name: "unit", command: ["npm", "run", "test:unit"] },
  { name: "sandbox", command: ["npm", "run", "test:sandbox"] },
  { name: "web", command: ["npm", "run", "test:web"] },
  { name: "e2e", command: ["npm", "run", "test:e2e"], alone: true },
];

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/** Starts one stage in its own process group; `done` resolves to its exit code. */
function start(stage, options, held) {
  const stdio = options.stdio ?? "inherit";
  const hold = held && stdio === "inherit";
  const child = spawn(stage.command[0], stage.command.slice(1), {
    cwd: options.cwd,
    // Its own group, so a stopped stage takes its whole tree (vitest pools, wrangler, workerd) along.
    detached: true,
    stdio: hold ? ["ignore", "pipe", "pipe"] : stdio === "inherit" ? ["ignore", "inherit", "inherit"] : stdio,
  });
  const chunks = [];
  if (hold) {
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
  }
  const done = new Promise((resolve) => {
    child.once("error", () => resolve(127));
    // A stage killed by a signal counts as failed (128 + signal number, as a shell reports it).
    child.once("close", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1)));
  });
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  const flush = () => {
    if (!hold) return;
    process.stdout.write(`\n===== ${stage.name} (ran beside the stages above) =====\n`);
    process.stdout.write(Buffer.concat(chunks));
  };
  return { done, stop, flush };
}

/**
 * Runs the stages (see STAGES) until one fails. Returns the exit code (0 when all passed), the
 * wall-clock time in ms, and one row per stage: its time in ms, or undefined if it never ran.
 */
export async function runStages(stages, options = {}) {
  const now = options.now ?? (() => performance.now());
  const began = now();
  const results = stages.map((stage) => ({ name: stage.name, status: "not run", ms: undefined }));
  /** @type {{ index: number, run: ReturnType<typeof start> }[]} */
  let running = [];
  let failure = null;
  let wake = () => {};

  const launch = (index) => {
    const stage = stages[index];
    const started = now();
    const run = start(stage, options, stage.background === true);
    const entry = { index, run };
    running.push(entry);
    const finished = run.done.then((code) => {
      results[index].ms = now() - started;
      running = running.filter((r) => r !== entry);
      run.flush();
      if (failure && code !== 0 && results[index].status === "stopping") {
        results[index].status = "stopped";
      } else if (code === 0) {
        results[index].status = "passed";
      } else {
        results[index].status = `failed (exit ${code})`;
        if (!failure) {
          failure = { code };
          for (const other of running) {
            results[other.index].status = "stopping";
            other.run.stop();
          }
        }
      }
      wake();
      return code;
    });
    return finished;
  };

  // Resolves when `predicate` holds, re-checked whenever a stage ends.
  const until = async (predicate) => {
    while (!predicate()) await new Promise((resolve) => (wake = resolve));
  };

  if (options.signals) {
    // The stages run in their own process groups, so a Ctrl-C or a CI cancel reaches them through us.
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.once(signal, () => {
        for (const r of running) r.run.stop();
        process.exit(128 + signalNumbers[signal]);
      });
    }
  }
  for (const [index, stage] of stages.entries()) {
    if (failure) break;
    if (stage.alone) await until(() => failure !== null || running.length === 0);
    if (failure) break;
    const finished = launch(index);
    if (!stage.background) await until(() => failure !== null || results[index].ms !== undefined);
    void finished;
  }
  // Nothing left behind: wait for the background stages (or for the stopped ones to go).
  await until(() => running.length === 0);
  return { exitCode: failure ? failure.code : 0, ms: now() - began, results };
}

function duration(ms) {
  if (ms === undefined) return "-";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** The table `npm test` prints at the end: stage, result, time, and the wall-clock total. */
export function formatTable(results, wallMs) {
  const besides = results.some((r) => r.background);
  const rows = [
    ["stage", "result", "time"],
    ...results.map((r) => [r.background ? `${r.name} (beside)` : r.name, r.status, duration(r.ms)]),
    [besides ? "total (wall clock)" : "total", "", duration(wallMs)],
  ];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row) => `${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padStart(widths[2])}`.trimEnd();
  const rule = "-".repeat(widths[0] + widths[1] + widths[2] + 4);
  return [line(rows[0]), rule, ...rows.slice(1, -1).map(line), rule, line(rows.at(-1))].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { exitCode, ms, results } = await runStages(STAGES, { signals: true });
  const rows = results.map((r, i) => ({ ...r, background: STAGES[i].background === true }));
  console.log(`\n${formatTable(rows, ms)}`);
  process.exit(exitCode);
}
