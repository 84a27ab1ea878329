// Shared between setup.ts and the tests: a console.error fails the test unless the test expects it.
let allowed = false;
let calls: unknown[][] = [];

export function resetConsoleErrors(): void {
  allowed = false;
  calls = [];
}

export function recordConsoleError(args: unknown[]): void {
  calls.push(args);
}

/** Call in a test that expects console.error (e.g. an error boundary); returns the calls so far. */
export function allowConsoleError(): { calls: () => unknown[][] } {
  allowed = true;
  return { calls: () => calls };
}

export function unexpectedConsoleErrors(): unknown[][] {
  return allowed ? [] : calls;
}
