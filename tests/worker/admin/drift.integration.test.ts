// The operator's page's data, GET /api/admin/drift (docs/decisions/134-operations-page.md): admins
// only; held money past its rules, money not moved, webhooks refused in the last day (counted by one
// upsert, so concurrent refusals all count), the analytics queue's backlog and dead letters, each
// cron step's last outcome, and the last hour's unexpected errors (kept to a bound under a storm).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEAD_LETTER_PREFIX } from "../../../domain/analytics";
import { CRON_STEP_LABELS } from "../../../domain/drift";
import { osloDay } from "../../../domain/format";
import type { Bindings } from "../../../worker/env";
import { CRON_STEPS } from "../../../worker/cron/scheduled";
import { conditionsOf, driftReport, type DriftReport } from "../../../worker/features/admin/drift";
import { ERRORS_KEPT_PER_HOUR, storeRequestError } from "../../../worker/lib/error-store";
import type { ErrorLine } from "../../../worker/lib/request-log";
import { createSale, createUser, signedInClient } from "../../factories";
import { Client } from "../support/http";

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

async function adminReport(): Promise<DriftReport> {
  const admin = await signedInClient((await createUser({ role: "admin" })).id);
  const res = await admin.get("/api/admin/drift");
  expect(res.status).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  return res.json<DriftReport>();
}

/** An order in `state`, paid `paidHoursAgo` hours ago, with the columns given set. */
async function order(
  state: "held" | "handed_over" | "problem" | "released",
  paidHoursAgo: number,
  set: Record<string, string | null> = {},
) {
  const sale = await createSale({ orderState: state, paidAt: ago(paidHoursAgo), listing: { title: `Drift ${state} ${paidHoursAgo}` } });
  for (const [column, value] of Object.entries(set)) {
    await env.DB.prepare(`UPDATE orders SET ${column} = ?2 WHERE id = ?1`).bind(sale.id, value).run();
  }
  return sale.id;
}

function errorLine(requestId: string): ErrorLine {
  return {
    type: "error",
    request_id: requestId,
    method: "GET",
    route: "/api/home",
    status: 500,
    name: "Error",
    message: "boom",
    stack: "Error: boom",
  };
}

describe("GET /api/admin/drift", () => {
  it("answers admins only: a visitor 401, a user and a moderator 403", async () => {
    expect((await new Client().get("/api/admin/drift")).status).toBe(401);
    for (const role of ["user", "moderator"] as const) {
      const client = await signedInClient((await createUser({ role })).id);
      expect((await client.get("/api/admin/drift")).status, role).toBe(403);
    }
    expect((await adminReport()).generated_at).toEqual(expect.any(String));
  });

  it("lists money held past its rules, and only that", async () => {
    const heldLong = await order("held", 9 * 24 + 1);
    const heldShort = await order("held", 9 * 24 - 1);
    const releaseLate = await order("handed_over", 60, { release_due_at: ago(3) });
    const releaseDue = await order("handed_over", 60, { release_due_at: ago(1) });
    const caseOld = await order("problem", 9 * 24, { problem_at: ago(7 * 24 + 1) });
    const caseNew = await order("problem", 9 * 24, { problem_at: ago(6 * 24) });
    const report = await adminReport();
    const ids = report.held_orders.items.map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([heldLong, releaseLate, caseOld]));
    expect(ids).not.toContain(heldShort);
    expect(ids).not.toContain(releaseDue);
    expect(ids).not.toContain(caseNew);
    expect(report.held_orders.total).toBe(ids.length);
    expect(report.held_orders.items.find((o) => o.id === releaseLate)).toMatchObject({
      state: "handed_over",
      listing_title: "Drift handed_over 60",
    });
    expect(report.conditions).toContain("held_too_long");
  });

  it("lists decided money a provider has not moved: a refused transfer at once, anything else after two hours", async () => {
    const refused = await order("released", 1, {
      settled_at: ago(0.5),
      money_moved_at: null,
      payout_error: "Kontoen kan ikke motta penger.",
    });
    const late = await order("released", 5, { settled_at: ago(3), money_moved_at: null });
    const recent = await order("released", 1, { settled_at: ago(1), money_moved_at: null });
    const moved = await order("released", 5, { settled_at: ago(3) });
    const report = await adminReport();
    const ids = report.unmoved_orders.items.map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([refused, late]));
    expect(ids).not.toContain(recent);
    expect(ids).not.toContain(moved);
    expect(report.unmoved_orders.items.find((o) => o.id === refused)?.payout_error).toBe("Kontoen kan ikke motta penger.");
    expect(report.conditions).toContain("money_not_moved");
  });

  it("counts every refused webhook of the last day, also those refused at the same moment", async () => {
    const forged = () =>
      new Client().request("/api/payments/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": "t=1,v1=forfalsket", "Content-Type": "application/json" },
        body: JSON.stringify({ id: "evt_forfalsket", type: "checkout.session.completed" }),
      });
    const answers = await Promise.all(Array.from({ length: 8 }, forged));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(400));
    // Two days ago: purged by the cron, and not the last day's anyway.
    await env.DB.prepare(
      "INSERT INTO webhook_refusals (provider, code, hour, count, last_at) VALUES ('vipps', 'INVALID_SIGNATURE', ?1, 5, ?2)",
    )
      .bind(ago(49).slice(0, 13), ago(49))
      .run();
    const report = await adminReport();
    expect(report.webhook_refusals.items).toEqual([
      { provider: "stripe", code: "INVALID_SIGNATURE", count: 8, last_at: expect.any(String) },
    ]);
    expect(report.webhook_refusals.total).toBe(8);
    expect(report.conditions).toContain("webhooks_refused");
  });

  it("counts the dead letters kept in the private bucket, and those of the last day", async () => {
    await env.PRIVATE.put(`${DEAD_LETTER_PREFIX}day=${osloDay(new Date())}/drift-ny.json`, "{}");
    await env.PRIVATE.put(`${DEAD_LETTER_PREFIX}day=2026-01-02/drift-gammel.json`, "{}");
    const { dead_letters } = await adminReport();
    expect(dead_letters).toMatchObject({ at_least: false, last_day: 1, newest_at: expect.any(String) });
    expect(dead_letters.total).toBeGreaterThanOrEqual(2);
    await env.PRIVATE.delete([
      `${DEAD_LETTER_PREFIX}day=${osloDay(new Date())}/drift-ny.json`,
      `${DEAD_LETTER_PREFIX}day=2026-01-02/drift-gammel.json`,
    ]);
  });

  it("asks the analytics queue for its backlog, and says so when the queue cannot answer", async () => {
    const { analytics_queue } = await adminReport();
    expect(analytics_queue).toEqual({ backlog_count: expect.any(Number), backlog_bytes: expect.any(Number), oldest_at: null });
    const silent = { ...(env as Bindings), ANALYTICS_QUEUE: { metrics: () => Promise.reject(new Error("metrics unavailable")) } };
    const report = await driftReport(env.DB, silent as unknown as Bindings);
    expect(report.analytics_queue).toEqual({ unavailable: "metrics unavailable" });
  });

  it("flags a backlog whose oldest message is more than 30 minutes old", async () => {
    const report = await driftReport(env.DB, env as Bindings);
    const withQueue = (minutes: number) =>
      conditionsOf(
        {
          ...report,
          analytics_queue: { backlog_count: 3, backlog_bytes: 300, oldest_at: new Date(Date.now() - minutes * 60_000).toISOString() },
        },
        new Date(),
      );
    expect(withQueue(31)).toContain("queue_backlog");
    expect(withQueue(29)).not.toContain("queue_backlog");
  });

  it("shows each cron step's last run by its Norwegian name, the failing ones flagged", async () => {
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO cron_steps (step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row) VALUES ('sitemap', ?1, 0, 'R2 is unavailable', 12, 2) ON CONFLICT (step) DO UPDATE SET last_ok = 0, last_error = excluded.last_error, failures_in_a_row = 2",
      ).bind(ago(0.5)),
      env.DB.prepare(
        "INSERT INTO cron_steps (step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row) VALUES ('payments', ?1, 1, NULL, 40, 0) ON CONFLICT (step) DO NOTHING",
      ).bind(ago(0.5)),
    ]);
    const report = await adminReport();
    expect(report.cron_steps.map((s) => s.step).slice(0, 1)).toEqual(["payments"]);
    expect(report.cron_steps.find((s) => s.step === "sitemap")).toMatchObject({
      label: "Nettstedskart",
      last_ok: false,
      last_error: "R2 is unavailable",
      failures_in_a_row: 2,
    });
    expect(report.conditions).toContain("cron_failing");
  });

  it("every cron step has its Norwegian name", () => {
    expect(CRON_STEPS.map((s) => s.name).filter((name) => !CRON_STEP_LABELS[name])).toEqual([]);
  });

  it("lists the last hour's errors; a storm of errors keeps a bounded number", async () => {
    const old = crypto.randomUUID().replace(/-/g, "").slice(0, 16);
    await storeRequestError(env as Bindings, errorLine(old), null, new Date(Date.now() - 2 * HOUR));
    const storm = Array.from({ length: ERRORS_KEPT_PER_HOUR + 20 }, () => crypto.randomUUID().replace(/-/g, "").slice(0, 16));
    await Promise.all(storm.map((id) => storeRequestError(env as Bindings, errorLine(id), "abcdef0123456789")));
    const lastHour = await env.DB.prepare("SELECT COUNT(*) AS n FROM request_errors WHERE at > ?1").bind(ago(1)).first<number>("n");
    expect(lastHour).toBe(ERRORS_KEPT_PER_HOUR);
    const report = await adminReport();
    expect(report.errors).toMatchObject({ total: ERRORS_KEPT_PER_HOUR, capped: true });
    expect(report.errors.items).toHaveLength(50);
    expect(report.errors.items.map((e) => e.request_id)).not.toContain(old);
    expect(report.errors.items[0]).toEqual({
      request_id: expect.any(String),
      at: expect.any(String),
      method: "GET",
      route: "/api/home",
      status: 500,
      name: "Error",
      message: "boom",
    });
    expect(report.conditions).toContain("errors");
  });
});
