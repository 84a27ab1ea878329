// What the operator's page /admin/drift shows (docs/decisions/134-operations-page.md): read in one
// D1 batch, one listing of the private bucket and one question to the analytics queue.
import { DEAD_LETTER_PREFIX } from "../../../domain/analytics";
import { CRON_STEP_LABELS, DRIFT_LIMITS, type DriftCondition } from "../../../domain/drift";
import { osloDay } from "../../../domain/format";
import type { OrderState } from "../../../domain/orders";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { ERRORS_KEPT_PER_HOUR } from "../../lib/error-store";
import { refusalHour } from "../payments/webhook-refusals";

const HOUR_MS = 3_600_000;
/** Rows of each list the page shows; the totals count them all. */
export const DRIFT_LIST_LIMIT = 50;
/** Pages of 1,000 keys read to count the dead letters; past them the count says "at least". */
const DEAD_LETTER_PAGES = 10;

export interface HeldOrder {
  id: string;
  listing_title: string | null;
  state: Extract<OrderState, "held" | "handed_over" | "problem">;
  amount: number;
  paid_at: string;
  /** When the rule for its state ran out. */
  overdue_since: string;
}

export interface UnmovedOrder {
  id: string;
  listing_title: string | null;
  state: OrderState;
  amount: number;
  refund_amount: number;
  settled_at: string;
  payout_error: string | null;
}

export interface DriftReport {
  generated_at: string;
  /** The conditions that hold now, in the page's order (domain/drift.ts). */
  conditions: DriftCondition[];
  held_orders: { total: number; items: HeldOrder[] };
  unmoved_orders: { total: number; items: UnmovedOrder[] };
  webhook_refusals: { total: number; items: { provider: string; code: string; count: number; last_at: string }[] };
  /** What the queue reports of itself (its binding's metrics()), or why it could not be asked. */
  analytics_queue: { backlog_count: number; backlog_bytes: number; oldest_at: string | null } | { unavailable: string };
  dead_letters: { total: number; at_least: boolean; last_day: number; newest_at: string | null };
  cron_steps: {
    step: string;
    label: string;
    last_run_at: string;
    last_ok: boolean;
    last_error: string | null;
    last_ms: number;
    failures_in_a_row: number;
  }[];
  errors: {
    total: number;
    /** The hour's bound was reached: more errors may have happened than were kept. */
    capped: boolean;
    items: { request_id: string; at: string; method: string; route: string; status: number; name: string; message: string }[];
  };
}

type Counted<T> = T & { total: number };

function withoutTotal<T extends { total: number }>(rows: T[]): Omit<T, "total">[] {
  return rows.map(({ total: _total, ...row }) => row);
}

async function deadLetters(env: Bindings, now: Date): Promise<DriftReport["dead_letters"]> {
  let total = 0;
  let cursor: string | undefined;
  let pages = 0;
  do {
    const listed = await env.PRIVATE.list({ prefix: DEAD_LETTER_PREFIX, cursor, limit: 1000 });
    total += listed.objects.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor && ++pages < DEAD_LETTER_PAGES);
  // The last day's are under today's and yesterday's day prefixes (Oslo days, as the consumer writes them).
  const since = now.getTime() - 24 * HOUR_MS;
  let lastDay = 0;
  let newest: number | null = null;
  for (const day of new Set([osloDay(new Date(since)), osloDay(now)])) {
    let dayCursor: string | undefined;
    do {
      const listed = await env.PRIVATE.list({ prefix: `${DEAD_LETTER_PREFIX}day=${day}/`, cursor: dayCursor, limit: 1000 });
      for (const object of listed.objects) {
        const at = object.uploaded.getTime();
        if (at >= since) lastDay++;
        newest = Math.max(newest ?? at, at);
      }
      dayCursor = listed.truncated ? listed.cursor : undefined;
    } while (dayCursor);
  }
  return { total, at_least: cursor !== undefined, last_day: lastDay, newest_at: newest === null ? null : new Date(newest).toISOString() };
}

async function queueBacklog(env: Bindings): Promise<DriftReport["analytics_queue"]> {
  try {
    const metrics = await env.ANALYTICS_QUEUE.metrics();
    return {
      backlog_count: metrics.backlogCount,
      backlog_bytes: metrics.backlogBytes,
      oldest_at: metrics.oldestMessageTimestamp ? new Date(metrics.oldestMessageTimestamp).toISOString() : null,
    };
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** When the rule for a held order's state ran out: days after payment, its release time, days after the case opened. */
function overdueSince(order: Pick<HeldOrder, "state" | "paid_at">, releaseDueAt: string | null, problemAt: string | null): string {
  const after = (from: string, days: number) => new Date(Date.parse(from) + days * 24 * HOUR_MS).toISOString();
  if (order.state === "handed_over" && releaseDueAt) return releaseDueAt;
  if (order.state === "problem" && problemAt) return after(problemAt, DRIFT_LIMITS.caseDays);
  return after(order.paid_at, DRIFT_LIMITS.heldDays);
}

/** Which conditions hold in a report (the page flags them; the drift mail is about these too). */
export function conditionsOf(report: Omit<DriftReport, "conditions">, now: Date): DriftCondition[] {
  const queue = report.analytics_queue;
  const oldQueue =
    "oldest_at" in queue &&
    queue.oldest_at !== null &&
    Date.parse(queue.oldest_at) <= now.getTime() - DRIFT_LIMITS.queueOldestMinutes * 60_000;
  const holds: Record<DriftCondition, boolean> = {
    held_too_long: report.held_orders.total > 0,
    money_not_moved: report.unmoved_orders.total > 0,
    webhooks_refused: report.webhook_refusals.total > 0,
    queue_backlog: oldQueue,
    dead_letters: report.dead_letters.last_day > 0,
    cron_failing: report.cron_steps.some((s) => !s.last_ok),
    errors: report.errors.total > 0,
  };
  return (Object.keys(holds) as DriftCondition[]).filter((c) => holds[c]);
}

export async function driftReport(db: Db, env: Bindings, now: Date = new Date()): Promise<DriftReport> {
  const ago = (hours: number) => new Date(now.getTime() - hours * HOUR_MS).toISOString();
  const [held, unmoved, refusals, steps, errors] = await db.batch([
    db
      .prepare(
        `SELECT o.id, l.title AS listing_title, o.state, p.amount, o.paid_at, o.release_due_at, o.problem_at,
                COUNT(*) OVER () AS total
         FROM orders o JOIN payments p ON p.id = o.payment_id LEFT JOIN listings l ON l.id = p.listing_id
         WHERE (o.state = 'held' AND o.paid_at <= ?1)
            OR (o.state = 'handed_over' AND o.release_due_at <= ?2)
            OR (o.state = 'problem' AND o.problem_at <= ?3)
         ORDER BY o.paid_at LIMIT ?4`,
      )
      .bind(ago(DRIFT_LIMITS.heldDays * 24), ago(DRIFT_LIMITS.releaseLateHours), ago(DRIFT_LIMITS.caseDays * 24), DRIFT_LIST_LIMIT),
    db
      .prepare(
        `SELECT o.id, l.title AS listing_title, o.state, p.amount, o.refund_amount, o.settled_at, o.payout_error,
                COUNT(*) OVER () AS total
         FROM orders o JOIN payments p ON p.id = o.payment_id LEFT JOIN listings l ON l.id = p.listing_id
         WHERE o.money_moved_at IS NULL AND o.settled_at IS NOT NULL AND (o.payout_error IS NOT NULL OR o.settled_at <= ?1)
         ORDER BY o.settled_at LIMIT ?2`,
      )
      .bind(ago(DRIFT_LIMITS.moneyLateHours), DRIFT_LIST_LIMIT),
    db
      .prepare(
        `SELECT provider, code, SUM(count) AS count, MAX(last_at) AS last_at FROM webhook_refusals
         WHERE hour >= ?1 GROUP BY provider, code ORDER BY count DESC, provider, code`,
      )
      .bind(refusalHour(new Date(now.getTime() - 24 * HOUR_MS))),
    db.prepare("SELECT step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row FROM cron_steps"),
    db
      .prepare(
        `SELECT request_id, at, method, route, status, name, message, COUNT(*) OVER () AS total FROM request_errors
         WHERE at > ?1 ORDER BY at DESC LIMIT ?2`,
      )
      .bind(ago(1), DRIFT_LIST_LIMIT),
  ]);
  const [analyticsQueue, dead] = await Promise.all([queueBacklog(env), deadLetters(env, now)]);

  const heldRows = held.results as Counted<
    Omit<HeldOrder, "overdue_since"> & { release_due_at: string | null; problem_at: string | null }
  >[];
  const unmovedRows = unmoved.results as Counted<UnmovedOrder>[];
  const refusalRows = refusals.results as DriftReport["webhook_refusals"]["items"];
  const errorRows = errors.results as Counted<DriftReport["errors"]["items"][number]>[];
  const stepRows = steps.results as (Omit<DriftReport["cron_steps"][number], "label" | "last_ok"> & { last_ok: number })[];
  const order = Object.keys(CRON_STEP_LABELS);
  const place = (step: string) => (order.includes(step) ? order.indexOf(step) : order.length);
  const errorTotal = errorRows[0]?.total ?? 0;

  const report: Omit<DriftReport, "conditions"> = {
    generated_at: now.toISOString(),
    held_orders: {
      total: heldRows[0]?.total ?? 0,
      items: heldRows.map(({ total: _total, release_due_at, problem_at, ...row }) => ({
        ...row,
        overdue_since: overdueSince(row, release_due_at, problem_at),
      })),
    },
    unmoved_orders: { total: unmovedRows[0]?.total ?? 0, items: withoutTotal(unmovedRows) },
    webhook_refusals: { total: refusalRows.reduce((sum, r) => sum + r.count, 0), items: refusalRows },
    analytics_queue: analyticsQueue,
    dead_letters: dead,
    cron_steps: stepRows
      .map((s) => ({ ...s, label: CRON_STEP_LABELS[s.step] ?? s.step, last_ok: s.last_ok === 1 }))
      .sort((a, b) => place(a.step) - place(b.step) || a.step.localeCompare(b.step)),
    errors: { total: errorTotal, capped: errorTotal >= ERRORS_KEPT_PER_HOUR, items: withoutTotal(errorRows) },
  };
  return { ...report, conditions: conditionsOf(report, now) };
}
