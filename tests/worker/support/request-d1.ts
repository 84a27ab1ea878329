// What D1 the requests a test makes asked for, from each request's own log line (decision 133),
// matched by X-Request-Id. The isolate's counter (worker/db/usage.ts) also counts what runs beside
// the test in the same workerd: all of a pool worker's files share it (vitest.worker.config.mts,
// isolate: false), so another file's queue consumer or delayed purge can land in the window.
import { vi } from "vitest";
import type { RequestLine } from "../../../worker/lib/request-log";

/** What D1 was asked by the requests of the answers given. */
export interface RequestD1 {
  roundTrips: number;
  statements: number;
}

/** An answer, or what a helper kept of it: its headers carry the request id. */
type Answer = { headers: Headers };

/** Watches the request lines from now on; `of` sums the lines of the answers given. */
export function watchRequestD1(): {
  of: (...answers: Answer[]) => RequestD1;
  statementsOf: (...answers: Answer[]) => number;
  stop: () => void;
} {
  const lines = new Map<string, RequestLine>();
  const original = console.log;
  const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    const text = args.map(String).join(" ");
    if (!text.startsWith('{"type":"request"')) return original(...args);
    const line = JSON.parse(text) as RequestLine;
    lines.set(line.request_id, line);
  });
  const of = (...answers: Answer[]): RequestD1 =>
    answers.reduce(
      (sum, res) => {
        const id = res.headers.get("X-Request-Id") ?? "";
        const line = lines.get(id);
        if (!line) throw new Error(`no request line for ${id || "an answer without X-Request-Id"}`);
        return { roundTrips: sum.roundTrips + line.d1_round_trips, statements: sum.statements + line.d1_statements };
      },
      { roundTrips: 0, statements: 0 },
    );
  return { of, statementsOf: (...answers) => of(...answers).statements, stop: () => spy.mockRestore() };
}
