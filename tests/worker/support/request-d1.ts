// The D1 statements of the requests a test makes, from each request's own log line (decision 133),
// matched by X-Request-Id. The isolate's counter (worker/db/usage.ts) also counts what runs beside
// the test in the same workerd: all of a pool worker's files share it (vitest.worker.config.mts,
// isolate: false), so another file's queue consumer or delayed purge can land in the window.
import { vi } from "vitest";
import type { RequestLine } from "../../../worker/lib/request-log";

/** Watches the request lines from now on; `statementsOf` sums the lines of the answers given. */
export function watchRequestD1(): { statementsOf: (...answers: Response[]) => number; stop: () => void } {
  const lines = new Map<string, RequestLine>();
  const original = console.log;
  const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    const text = args.map(String).join(" ");
    if (!text.startsWith('{"type":"request"')) return original(...args);
    const line = JSON.parse(text) as RequestLine;
    lines.set(line.request_id, line);
  });
  return {
    statementsOf: (...answers) =>
      answers.reduce((sum, res) => {
        const id = res.headers.get("X-Request-Id") ?? "";
        const line = lines.get(id);
        if (!line) throw new Error(`no request line for ${id || "an answer without X-Request-Id"}`);
        return sum + line.d1_statements;
      }, 0),
    stop: () => spy.mockRestore(),
  };
}
