// A console.error during a worker test is a failure (docs/style.md "Tests") unless the test says it
// expects one. tests/worker/setup.ts installs the guard around every test.
import { vi } from "vitest";

type Matcher = string | RegExp;

let recorded: unknown[][] = [];
let allowed: Matcher[] | "any" = [];
let spy: { mockRestore(): void } | undefined;

function describe(args: unknown[]): string {
  return args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === "string" ? a : safeJson(a))).join(" ");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * Declare that the current test expects console.error output. With matchers, only messages that
 * contain one of them are allowed (a string matches as a substring of the joined arguments).
 * Returns the recorded calls so the test can assert on them.
 */
export function allowConsoleError(...matchers: Matcher[]): { calls: () => unknown[][] } {
  allowed = matchers.length === 0 ? "any" : [...(allowed === "any" ? [] : allowed), ...matchers];
  return { calls: () => recorded };
}

export function installConsoleGuard(): void {
  recorded = [];
  allowed = [];
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    recorded.push(args);
  });
}

/** Restores console.error and throws when an unexpected error was logged (fails the test). */
export function checkConsoleGuard(): void {
  const calls = recorded;
  const allow = allowed;
  recorded = [];
  allowed = [];
  spy?.mockRestore();
  spy = undefined;
  const unexpected = calls.filter((args) => {
    if (allow === "any") return false;
    const text = describe(args);
    return !allow.some((m) => (typeof m === "string" ? text.includes(m) : m.test(text)));
  });
  if (unexpected.length > 0) {
    throw new Error(
      `Unexpected console.error during the test (call allowConsoleError() if it is expected):\n` +
        unexpected.map((args) => `  - ${describe(args)}`).join("\n"),
    );
  }
}
