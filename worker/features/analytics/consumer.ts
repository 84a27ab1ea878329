// The analytics queue consumer (docs/architecture.md "Queues", docs/decisions/036-analytics-pipeline.md):
// each batch becomes one NDJSON object per day in the private bucket, and the daily rollups per
// listing are upserted in D1 in one statement batch. Idempotent on the message id.
import { ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY, DEAD_LETTER_PREFIX, rawEventsKey } from "../../../domain/analytics";
import { analyticsMessageSchema, type AnalyticsMessage } from "../../../domain/schemas/analytics";
import type { Bindings } from "../../env";

/** D1 refuses statements with more than 100 bound parameters. */
const MAX_PARAMS = 100;
/** Retry delays grow 10 s, 20 s, 40 s, … up to 10 minutes; after max_retries the DLQ takes over. */
const RETRY_BASE_SECONDS = 10;
const RETRY_MAX_SECONDS = 600;

export function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));
}

interface Valid {
  message: Message<unknown>;
  body: AnalyticsMessage;
}

export interface BatchOutcome {
  /** Messages counted by this call. */
  processed: number;
  /** Messages already counted before (redelivered), acknowledged without work. */
  duplicates: number;
  /** Messages that do not parse: retried with backoff until they land in the dead-letter queue. */
  invalid: number;
  /** Raw objects written to R2. */
  objects: string[];
}

/**
 * Handle one delivery of the `analytics` queue. Every message is acknowledged or retried explicitly:
 * a message that does not parse is retried on its own (a newer producer may have sent it; after
 * max_retries the platform moves it to the DLQ), and a failure of R2 or D1 retries the batch's
 * valid messages with backoff. Nothing is counted twice: counted message ids are recorded in the
 * same D1 batch as the rollups.
 */
export async function consumeAnalyticsBatch(batch: MessageBatch<unknown>, env: Bindings): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { processed: 0, duplicates: 0, invalid: 0, objects: [] };
  const valid: Valid[] = [];
  const seen = new Set<string>();
  for (const message of batch.messages) {
    const parsed = analyticsMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      outcome.invalid++;
      console.warn(
        "Analytics: message does not parse; retrying towards the dead-letter queue",
        message.id,
        parsed.error.issues[0]?.message,
      );
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      continue;
    }
    if (seen.has(message.id)) {
      message.ack();
      continue;
    }
    seen.add(message.id);
    valid.push({ message, body: parsed.data });
  }
  if (valid.length === 0) return outcome;

  const written: string[] = [];
  try {
    const done = await alreadyProcessed(
      env.DB,
      valid.map((v) => v.message.id),
    );
    const fresh = valid.filter((v) => !done.has(v.message.id));
    outcome.duplicates = valid.length - fresh.length;
    if (fresh.length > 0) {
      await writeRawEvents(env.PRIVATE, fresh, written);
      await env.DB.batch(rollupStatements(env.DB, fresh));
    }
    outcome.processed = fresh.length;
    outcome.objects = written;
    for (const v of valid) v.message.ack();
  } catch (error) {
    console.error("Analytics: batch failed; retrying with backoff", error);
    // The retry may come in another batch: take back what this attempt wrote, so its events are
    // not stored twice (best effort; every line carries its message id for readers to dedupe).
    if (written.length) {
      try {
        await env.PRIVATE.delete(written);
      } catch (cleanupError) {
        console.error("Analytics: could not remove a failed batch's object", cleanupError);
      }
    }
    for (const v of valid) v.message.retry({ delaySeconds: retryDelaySeconds(v.message.attempts) });
  }
  return outcome;
}

async function alreadyProcessed(db: D1Database, ids: string[]): Promise<Set<string>> {
  const done = new Set<string>();
  for (const part of chunks(ids, MAX_PARAMS)) {
    const { results } = await db
      .prepare(`SELECT message_id FROM analytics_processed_messages WHERE message_id IN (${placeholders(part.length)})`)
      .bind(...part)
      .all<{ message_id: string }>();
    for (const row of results) done.add(row.message_id);
  }
  return done;
}

/** One NDJSON line per record: a session, each event of an events message, a listing view, a search. */
function linesOf(messageId: string, body: AnalyticsMessage): string[] {
  const base = { messageId, receivedAt: body.receivedAt, day: body.day };
  switch (body.kind) {
    case "session":
      return [JSON.stringify({ ...base, kind: "session", ...body.session })];
    case "events":
      return body.events.map((event, index) => JSON.stringify({ ...base, kind: "event", index, sessionId: body.sessionId, ...event }));
    case "listing_view":
      return [JSON.stringify({ ...base, kind: "listing_view", ...body.view })];
    case "search":
      return [JSON.stringify({ ...base, kind: "search", ...body.search })];
  }
}

/**
 * One object per day in the batch (one in practice; two around midnight), named by a fresh batch id:
 * an attempt that fails removes its own object, and two racing deliveries never share a key.
 */
async function writeRawEvents(bucket: R2Bucket, fresh: Valid[], written: string[]): Promise<void> {
  const byDay = new Map<string, Valid[]>();
  for (const v of fresh) byDay.set(v.body.day, [...(byDay.get(v.body.day) ?? []), v]);
  const batchId = crypto.randomUUID().replace(/-/g, "");
  for (const [day, items] of byDay) {
    const lines = items.flatMap((v) => linesOf(v.message.id, v.body));
    const key = rawEventsKey(day, batchId);
    await bucket.put(key, `${lines.join("\n")}\n`, {
      httpMetadata: { contentType: "application/x-ndjson" },
      customMetadata: { messages: String(items.length), records: String(lines.length) },
    });
    written.push(key);
  }
}

/**
 * The D1 side of a batch, run as one transaction: record the message ids (a plain INSERT, so a
 * concurrent delivery of the same message makes the whole batch fail and retry instead of counting
 * twice), upsert each listing view (largest duration and depth win), and recompute the touched
 * days' rollups from those views. Rollups only grow (MAX), so a day whose views were purged keeps
 * its figures.
 */
export function rollupStatements(db: D1Database, fresh: Valid[]): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  const processedAt = new Date().toISOString();
  for (const part of chunks(fresh, MAX_PARAMS / 2)) {
    statements.push(
      db
        .prepare(`INSERT INTO analytics_processed_messages (message_id, processed_at) VALUES ${rows(part.length, 2)}`)
        .bind(...part.flatMap((v) => [v.message.id, processedAt])),
    );
  }

  const views = fresh.flatMap((v) => (v.body.kind === "listing_view" ? [{ day: v.body.day, view: v.body.view }] : []));
  if (views.length === 0) return statements;
  for (const part of chunks(views, Math.floor(MAX_PARAMS / 6))) {
    statements.push(
      db
        .prepare(
          `INSERT INTO analytics_listing_views (view_id, listing_id, day, session_id, duration_ms, scroll_depth)
           VALUES ${rows(part.length, 6)}
           ON CONFLICT (view_id) DO UPDATE SET
             duration_ms = MAX(duration_ms, excluded.duration_ms),
             scroll_depth = MAX(scroll_depth, excluded.scroll_depth)`,
        )
        .bind(
          ...part.flatMap(({ day, view }) => [
            view.viewId,
            view.listingId,
            day,
            view.sessionId,
            view.viewDurationMs,
            view.scrollDepthPercent,
          ]),
        ),
    );
  }
  const viewIds = [...new Set(views.map((v) => v.view.viewId))];
  for (const part of chunks(viewIds, MAX_PARAMS)) {
    // The days a view belongs to are the stored rows' (a view keeps the day it started on).
    statements.push(
      db
        .prepare(
          // At most ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY views count per session, listing and day
          // (decision 038): one browser reloading a page cannot inflate a seller's figures.
          `INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions, total_view_ms)
           SELECT listing_id, day, COUNT(*), COUNT(DISTINCT session_id), SUM(duration_ms)
           FROM (
             SELECT v.listing_id, v.day, v.session_id, v.duration_ms,
                    ROW_NUMBER() OVER (PARTITION BY v.listing_id, v.day, v.session_id ORDER BY v.view_id) AS nth
             FROM analytics_listing_views v
             WHERE (v.listing_id, v.day) IN (SELECT listing_id, day FROM analytics_listing_views WHERE view_id IN (${placeholders(part.length)}))
               AND EXISTS (SELECT 1 FROM listings l WHERE l.id = v.listing_id)
           )
           WHERE nth <= ${ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY}
           GROUP BY listing_id, day
           ON CONFLICT (listing_id, day) DO UPDATE SET
             views = MAX(views, excluded.views),
             unique_sessions = MAX(unique_sessions, excluded.unique_sessions),
             total_view_ms = MAX(total_view_ms, excluded.total_view_ms)`,
        )
        .bind(...part),
    );
  }
  return statements;
}

/**
 * The dead-letter queue's consumer: keep each dead message in the private bucket for someone to
 * look at (analytics/dead-letter/day=…/{id}.json), then acknowledge it.
 */
export async function storeDeadLetters(batch: MessageBatch<unknown>, env: Bindings, day: string): Promise<void> {
  for (const message of batch.messages) {
    try {
      await env.PRIVATE.put(
        `${DEAD_LETTER_PREFIX}day=${day}/${encodeURIComponent(message.id)}.json`,
        JSON.stringify({ id: message.id, attempts: message.attempts, timestamp: message.timestamp.toISOString(), body: message.body }),
        { httpMetadata: { contentType: "application/json" } },
      );
      message.ack();
    } catch (error) {
      console.error("Analytics: could not store a dead letter", message.id, error);
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

function rows(n: number, columns: number): string {
  const row = `(${placeholders(columns)})`;
  return Array.from({ length: n }, () => row).join(", ");
}
