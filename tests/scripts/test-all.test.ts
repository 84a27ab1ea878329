// `npm test`'s runner (scripts/test-all.mjs): the stages run in order, the first failure stops the
// run with its exit code, and the table of stage times prints either way. Real child processes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatTable, runStages, STAGES } from "../../scripts/test-all.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const node = (code: string) => [process.execPath, "-e", code];

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

describe("formatTable", () => {
  it("shows each stage's time and the total", () => {
    const table = formatTable([
      { name: "typecheck", status: "passed", ms: 42_400 },
      { name: "worker", status: "failed (exit 1)", ms: 125_000 },
      { name: "e2e", status: "not run", ms: undefined },
    ]);
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
});

describe("npm test", () => {
  it("is the runner, starting with the Chromium check, and has a script for every stage", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toBe("node scripts/test-all.mjs");
    expect(STAGES[0]).toEqual({ name: "chromium", command: ["node", "scripts/chromium.mjs"] });
    for (const stage of STAGES.slice(1)) {
      expect(stage.command.slice(0, 2)).toEqual(["npm", "run"]);
      expect(pkg.scripts[stage.command[2]]).toBeDefined();
    }
  });
});
