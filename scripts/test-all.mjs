#!/usr/bin/env node
// `npm test`: every stage CI runs, in order. It stops at the first stage that fails, with that
// stage's exit code, and prints how long each stage took either way (decision 093). To add a stage,
// add a row to STAGES.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** @type {{ name: string, command: string[] }[]} */
export const STAGES = [
  { name: "chromium", command: ["node", "scripts/chromium.mjs"] },
  { name: "check", command: ["npm", "run", "check"] },
  { name: "typecheck", command: ["npm", "run", "typecheck"] },
  { name: "unit", command: ["npm", "run", "test:unit"] },
  { name: "worker", command: ["npm", "run", "test:worker"] },
  { name: "web", command: ["npm", "run", "test:web"] },
  { name: "sandbox", command: ["npm", "run", "test:sandbox"] },
  { name: "e2e", command: ["npm", "run", "test:e2e"] },
];

function run(command, options) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: options.stdio ?? "inherit", cwd: options.cwd });
    child.once("error", () => resolve(127));
    // A stage killed by a signal counts as failed (128 + signal number, as a shell reports it).
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1)));
  });
}

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/**
 * Runs the stages in order until one fails. Returns the exit code (0 when all passed) and one row
 * per stage: its time in ms, or undefined for the stages that did not run.
 */
export async function runStages(stages, options = {}) {
  const now = options.now ?? (() => performance.now());
  const results = stages.map((stage) => ({ name: stage.name, status: "not run", ms: undefined }));
  let exitCode = 0;
  for (const [i, stage] of stages.entries()) {
    const started = now();
    const code = await run(stage.command, options);
    results[i].ms = now() - started;
    results[i].status = code === 0 ? "passed" : `failed (exit ${code})`;
    if (code !== 0) {
      exitCode = code;
      break;
    }
  }
  return { exitCode, results };
}

function duration(ms) {
  if (ms === undefined) return "-";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** The table `npm test` prints at the end: stage, result, time, and the total. */
export function formatTable(results) {
  const total = results.reduce((sum, r) => sum + (r.ms ?? 0), 0);
  const rows = [["stage", "result", "time"], ...results.map((r) => [r.name, r.status, duration(r.ms)]), ["total", "", duration(total)]];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row) => `${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padStart(widths[2])}`.trimEnd();
  const rule = "-".repeat(widths[0] + widths[1] + widths[2] + 4);
  return [line(rows[0]), rule, ...rows.slice(1, -1).map(line), rule, line(rows.at(-1))].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { exitCode, results } = await runStages(STAGES);
  console.log(`\n${formatTable(results)}`);
  process.exit(exitCode);
}
