#!/usr/bin/env node
// `npm test`: every stage CI runs. The "first" stages (the Chromium check and `npm run check`) run
// before anything else; then two lanes run side by side (decision 100): the build and the end-to-end
// tests, which mostly wait (on the browser, the app, timers), and beside them the typecheck and the
// unit, sandbox, Worker and web tests, which keep the cores busy. The end-to-end stage is the longest,
// so it starts as early as it can. Within a lane the stages run in order. The first stage that fails
// stops the run (and whatever still runs in the other lane) with its exit code, and the table of
// stage times prints either way, with the wall-clock total. The main lane prints as it goes; the
// other lane's output is held back and printed whole, stage by stage, so the logs of two stages
// never interleave. To add a stage, add a row.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** @type {import("./test-all.d.mts").Stage[]} */
export const STAGES = [
  { name: "chromium", command: ["node", "scripts/chromium.mjs"], lane: "first" },
  { name: "check", command: ["npm", "run", "check"], lane: "first" },
  { name: "build", command: ["npm", "run", "build"] },
  // The app it starts reuses the build above (SKIP_BUILD).
  { name: "e2e", command: ["npm", "run", "test:e2e"], env: { SKIP_BUILD: "1" } },
  { name: "typecheck", command: ["npm", "run", "typecheck"], lane: "beside" },
  { name: "unit", command: ["npm", "run", "test:unit"], lane: "beside" },
  { name: "sandbox", command: ["npm", "run", "test:sandbox"], lane: "beside" },
  { name: "worker", command: ["npm", "run", "test:worker"], lane: "beside" },
  { name: "web", command: ["npm", "run", "test:web"], lane: "beside" },
];

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/** Starts one stage in its own process group; `done` resolves to its exit code. */
function start(stage, options, held) {
  const stdio = options.stdio ?? "inherit";
  const hold = held && stdio === "inherit";
  const child = spawn(stage.command[0], stage.command.slice(1), {
    cwd: options.cwd,
    env: stage.env ? { ...process.env, ...stage.env } : process.env,
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
    process.stdout.write(`\n===== ${stage.name} (ran beside the main lane) =====\n`);
    process.stdout.write(Buffer.concat(chunks));
  };
  return { done, stop, flush };
}

/**
 * Runs the stages (see STAGES) until one fails: each lane in order, the lanes side by side. Returns
 * the exit code (0 when all passed), the wall-clock time in ms, and one row per stage: its time in ms,
 * or undefined if it never ran.
 */
export async function runStages(stages, options = {}) {
  const now = options.now ?? (() => performance.now());
  const began = now();
  const results = stages.map((stage) => ({ name: stage.name, status: "not run", ms: undefined }));
  /** @type {Map<number, ReturnType<typeof start>>} */
  const running = new Map();
  let failure = null;

  const stopAll = () => {
    for (const [index, run] of running) {
      results[index].status = "stopping";
      run.stop();
    }
  };
  if (options.signals) {
    // The stages run in their own process groups, so a Ctrl-C or a CI cancel reaches them through us.
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.once(signal, () => {
        for (const run of running.values()) run.stop();
        process.exit(128 + signalNumbers[signal]);
      });
    }
  }

  const runLane = async (indexes) => {
    for (const index of indexes) {
      if (failure) return;
      const stage = stages[index];
      const started = now();
      const run = start(stage, options, isBeside(stage));
      running.set(index, run);
      const code = await run.done;
      running.delete(index);
      results[index].ms = now() - started;
      run.flush();
      if (code === 0) {
        results[index].status = "passed";
      } else if (failure && results[index].status === "stopping") {
        results[index].status = "stopped";
      } else {
        results[index].status = `failed (exit ${code})`;
        if (!failure) {
          failure = { code };
          stopAll();
        }
      }
    }
  };

  const lanes = new Map();
  for (const [index, stage] of stages.entries()) {
    const lane = stage.lane ?? "main";
    lanes.set(lane, [...(lanes.get(lane) ?? []), index]);
  }
  await runLane(lanes.get("first") ?? []);
  lanes.delete("first");
  await Promise.all([...lanes.values()].map(runLane));
  return { exitCode: failure ? failure.code : 0, ms: now() - began, results };
}

/** A stage that runs beside the main lane (its output held back, marked in the table). */
function isBeside(stage) {
  return !["main", "first"].includes(stage.lane ?? "main");
}

function duration(ms) {
  if (ms === undefined) return "-";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** The table `npm test` prints at the end: stage, result, time, and the wall-clock total. */
export function formatTable(results, wallMs) {
  const besides = results.some((r) => r.beside);
  const rows = [
    ["stage", "result", "time"],
    ...results.map((r) => [r.beside ? `${r.name} (beside)` : r.name, r.status, duration(r.ms)]),
    [besides ? "total (wall clock)" : "total", "", duration(wallMs)],
  ];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row) => `${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padStart(widths[2])}`.trimEnd();
  const rule = "-".repeat(widths[0] + widths[1] + widths[2] + 4);
  return [line(rows[0]), rule, ...rows.slice(1, -1).map(line), rule, line(rows.at(-1))].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { exitCode, ms, results } = await runStages(STAGES, { signals: true });
  const rows = results.map((r, i) => ({ ...r, beside: isBeside(STAGES[i]) }));
  console.log(`\n${formatTable(rows, ms)}`);
  process.exit(exitCode);
}
