// The operator's page's answer, GET /api/admin/drift (docs/decisions/134-operations-page.md), as
// the Worker sends it (checked by tests/worker/response-shapes.integration.test.ts).
import type { InferResponseType } from "hono/client";
import type { Api } from "./api-core";

export type DriftReportBody = InferResponseType<Api["admin"]["drift"]["$get"], 200>;

/** A report with one of everything and nothing flagged; override what a test needs. */
export function driftReportBody(overrides: Partial<DriftReportBody> = {}): DriftReportBody {
  return {
    generated_at: "2026-11-29T10:00:00.000Z",
    conditions: [],
    held_orders: { total: 0, items: [] },
    unmoved_orders: { total: 0, items: [] },
    webhook_refusals: { total: 0, items: [] },
    analytics_queue: { backlog_count: 0, backlog_bytes: 0, oldest_at: null },
    dead_letters: { total: 0, at_least: false, last_day: 0, newest_at: null },
    cron_steps: [
      {
        step: "payments",
        label: "Betalinger uten webhook",
        last_run_at: "2026-11-29T09:00:00.000Z",
        last_ok: true,
        last_error: null,
        last_ms: 40,
        failures_in_a_row: 0,
      },
    ],
    errors: { total: 0, capped: false, items: [] },
    ...overrides,
  };
}
