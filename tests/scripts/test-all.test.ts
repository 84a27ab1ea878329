// `npm test`'s runner (scripts/test-all.mjs): the stages of a lane run in order, two lanes side by
// side, the first failure stops the run (and whatever still runs) with its exit code, and the table of
// stage times prints either way. Real child processes.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatTable, runStages, STAGES } from "../../scripts/test-all.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const node = (code: string) => [process.execPath, "-e", code];
/** A stage that waits `ms`, then writes `file` (if given) and exits with `code`. */
const sleeper = (ms: number, code = 0, file?: string) =>
  node(`setTimeout(() => { ${file ? `require("fs").writeFileSync(${JSON.stringify(file)}, "x");` : ""} process.exit(${code}); }, ${ms})`);
const scratch = () => mkdtempSync(path.join(os.tmpdir(), "test-all-"));

describe("runStages", () => {
  it("runs every stage in order when all pass", async () => {
    const { exitCode, results } = await runStages(
      [
        { name: "one", command: node("process.exit(0)") },
        { name: "two", command: node("process.exit(0)") },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(0);
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ["one", "passed"],
      ["two", "passed"],
    ]);
    expect(results.every((r) => typeof r.ms === "number" && r.ms >= 0)).toBe(true);
  });

  it("stops at the first failing stage with its exit code", async () => {
    const { exitCode, results } = await runStages(
      [
        { name: "one", command: node("process.exit(0)") },
        { name: "two", command: node("process.exit(3)") },
        { name: "three", command: node("process.exit(0)") },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(3);
    expect(results.map((r) => [r.name, r.status, r.ms === undefined])).toEqual([
      ["one", "passed", false],
      ["two", "failed (exit 3)", false],
      ["three", "not run", true],
    ]);
  });

  it("fails on a command that cannot start", async () => {
    const { exitCode, results } = await runStages([{ name: "missing", command: ["/nonexistent/lekebytte-stage"] }], { stdio: "ignore" });
    expect(exitCode).toBe(127);
    expect(results[0].status).toBe("failed (exit 127)");
  });
});

describe("runStages with two lanes", () => {
  it("runs the lanes side by side, each in order", async () => {
    const dir = scratch();
    const firstDone = path.join(dir, "first");
    const { exitCode, ms, results } = await runStages(
      [
        { name: "first", command: sleeper(1_000, 0, firstDone) },
        // Exits 5 unless the stage before it in its lane has finished.
        { name: "second", command: node(`process.exit(require("fs").existsSync(${JSON.stringify(firstDone)}) ? 0 : 5)`) },
        { name: "beside", command: sleeper(1_000), lane: "beside" },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(0);
    expect(results.map((r) => r.status)).toEqual(["passed", "passed", "passed"]);
    // Side by side, not one after the other: the wall clock is well under the stages' sum.
    const sum = results.reduce((total, r) => total + (r.ms ?? 0), 0);
    expect(ms).toBeLessThan(sum - 500);
  });

  it("a failure in the other lane stops the main lane's stage and gives the run its exit code", async () => {
    const dir = scratch();
    const mainFinished = path.join(dir, "main");
    const { exitCode, results } = await runStages(
      [
        { name: "e2e", command: sleeper(10_000, 0, mainFinished) },
        { name: "after", command: node("process.exit(0)") },
        { name: "worker", command: sleeper(300, 4), lane: "beside" },
        { name: "web", command: node("process.exit(0)"), lane: "beside" },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(4);
    expect(results.map((r) => r.status)).toEqual(["stopped", "not run", "failed (exit 4)", "not run"]);
    expect(results[0].ms).toBeLessThan(5_000);
    expect(existsSync(mainFinished)).toBe(false);
  });

  it("a failure in the main lane stops the other lane's stage", async () => {
    const dir = scratch();
    const besideFinished = path.join(dir, "beside");
    const { exitCode, results } = await runStages(
      [
        { name: "check", command: sleeper(200, 2) },
        { name: "worker", command: sleeper(10_000, 0, besideFinished), lane: "beside" },
        { name: "web", command: node("process.exit(0)"), lane: "beside" },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(2);
    expect(results.map((r) => r.status)).toEqual(["failed (exit 2)", "stopped", "not run"]);
    expect(results[1].ms).toBeLessThan(5_000);
    expect(existsSync(besideFinished)).toBe(false);
  });

  it("runs the first lane before any other lane starts, and its failure starts none", async () => {
    const dir = scratch();
    const firstDone = path.join(dir, "first");
    const needsFirst = `process.exit(require("fs").existsSync(${JSON.stringify(firstDone)}) ? 0 : 5)`;
    const passed = await runStages(
      [
        { name: "check", command: sleeper(500, 0, firstDone), lane: "first" },
        { name: "build", command: node(needsFirst) },
        { name: "worker", command: node(needsFirst), lane: "beside" },
      ],
      { stdio: "ignore" },
    );
    expect(passed.exitCode).toBe(0);
    expect(passed.results.map((r) => r.status)).toEqual(["passed", "passed", "passed"]);

    const failed = await runStages(
      [
        { name: "check", command: node("process.exit(2)"), lane: "first" },
        { name: "build", command: node("process.exit(0)") },
        { name: "worker", command: node("process.exit(0)"), lane: "beside" },
      ],
      { stdio: "ignore" },
    );
    expect(failed.exitCode).toBe(2);
    expect(failed.results.map((r) => r.status)).toEqual(["failed (exit 2)", "not run", "not run"]);
  });

  it("gives a stage its own environment on top of the runner's", async () => {
    const { exitCode } = await runStages(
      [
        {
          name: "env",
          command: node('process.exit(process.env.SKIP_BUILD === "1" && process.env.PATH ? 0 : 6)'),
          env: { SKIP_BUILD: "1" },
        },
      ],
      { stdio: "ignore" },
    );
    expect(exitCode).toBe(0);
  });
});

describe("formatTable", () => {
  it("shows each stage's time and the total", () => {
    const table = formatTable(
      [
        { name: "typecheck", status: "passed", ms: 42_400 },
        { name: "worker", status: "failed (exit 1)", ms: 125_000 },
        { name: "e2e", status: "not run", ms: undefined },
      ],
      167_400,
    );
    expect(table.split("\n")).toEqual([
      "stage      result                 time",
      "--------------------------------------",
      "typecheck  passed                 42 s",
      "worker     failed (exit 1)  2 min 05 s",
      "e2e        not run                   -",
      "--------------------------------------",
      "total                       2 min 47 s",
    ]);
  });

  it("marks the stages that ran beside others, and the total is the wall clock", () => {
    const table = formatTable(
      [
        { name: "worker", status: "passed", ms: 200_000, beside: true },
        { name: "web", status: "passed", ms: 90_000 },
      ],
      201_000,
    );
    expect(table.split("\n")).toEqual([
      "stage               result        time",
      "--------------------------------------",
      "worker (beside)     passed  3 min 20 s",
      "web                 passed  1 min 30 s",
      "--------------------------------------",
      "total (wall clock)          3 min 21 s",
    ]);
  });
});

describe("npm test", () => {
  it("is the runner, starting with the Chromium check, and has a script for every stage", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toBe("node scripts/test-all.mjs");
    expect(STAGES[0]).toEqual({ name: "chromium", command: ["node", "scripts/chromium.mjs"], lane: "first" });
    // The lint, format and generated-files check before anything else.
    expect(STAGES.filter((s) => s.lane === "first").map((s) => s.name)).toEqual(["chromium", "check"]);
    // The build and e2e (which reuses the build's output) in the main lane, everything else beside it.
    expect(STAGES.filter((s) => (s.lane ?? "main") === "main").map((s) => s.name)).toEqual(["build", "e2e"]);
    expect(STAGES.filter((s) => s.lane === "beside").map((s) => s.name)).toEqual(["typecheck", "unit", "sandbox", "worker", "web"]);
    expect(STAGES.find((s) => s.name === "e2e")?.env).toEqual({ SKIP_BUILD: "1" });
    for (const stage of STAGES.slice(1)) {
      expect(stage.command.slice(0, 2)).toEqual(["npm", "run"]);
      expect(pkg.scripts[stage.command[2]]).toBeDefined();
    }
  });
});
