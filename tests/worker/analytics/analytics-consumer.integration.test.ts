// The analytics queue consumer, driven through the Worker's `queue` export with createMessageBatch
// and getQueueResult: the batch write to R2, the rollups, retries with backoff, a bad message, a
// redelivered batch, two deliveries racing, and the dead-letter queue's consumer.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { osloDay } from "../../../domain/format";
import worker from "../../../worker";
import { retryDelaySeconds } from "../../../worker/features/analytics/consumer";
import { purgeAnalytics } from "../../../worker/features/analytics/housekeeping";
import { analyticsMessages, createListing } from "../../factories";
import { allowConsoleError } from "../support/console-guard";

type Bindings = typeof env;
interface Msg {
  id: string;
  body: unknown;
  attempts?: number;
}

let counter = 0;
const msg = (body: unknown, attempts = 1): Msg => ({ id: `msg-${Date.now()}-${++counter}-${crypto.randomUUID()}`, body, attempts });

/**
 * Runs the Worker's queue handler on a batch and returns getQueueResult's acks and retries, with the
 * delay each retry asked for (getQueueResult records only the message ids, so `retry` is observed).
 */
async function deliver(messages: Msg[], bindings: Bindings = env, queue = "analytics") {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ id: m.id, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  );
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    vi.spyOn(message, "retry").mockImplementation((options?: QueueRetryOptions) => {
      delays.set(message.id, options?.delaySeconds);
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  return { ...result, retryMessages: result.retryMessages.map((r) => ({ msgId: r.msgId, delaySeconds: delays.get(r.msgId) })) };
}

async function rawObjects(prefix = "analytics/raw/") {
  const listed = await env.PRIVATE.list({ prefix, include: ["customMetadata"] });
  return Promise.all(
    listed.objects.map(async (o) => ({
      key: o.key,
      meta: o.customMetadata,
      lines: (await (await env.PRIVATE.get(o.key))!.text())
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    })),
  );
}

async function rollup(listingId: string, day = osloDay(new Date())) {
  return env.DB.prepare("SELECT views, unique_sessions, total_view_ms FROM listing_stats_daily WHERE listing_id = ?1 AND day = ?2")
    .bind(listingId, day)
    .first<{ views: number; unique_sessions: number; total_view_ms: number }>();
}

async function clearRaw() {
  const listed = await env.PRIVATE.list({ prefix: "analytics/" });
  if (listed.objects.length) await env.PRIVATE.delete(listed.objects.map((o) => o.key));
}

beforeEach(async () => {
  await clearRaw();
});

describe("a batch", () => {
  it("is written to R2 as one NDJSON object and rolled up per listing and day", async () => {
    const listing = await createListing();
    const [s1, s2] = [crypto.randomUUID(), crypto.randomUUID()];
    const viewA = crypto.randomUUID();
    const messages = [
      msg(analyticsMessages.session(s1)),
      msg(analyticsMessages.events(s1, 3)),
      // One visit reported three times (start, 30 s, leaving after 42 s): one view of 42 s.
      msg(analyticsMessages.view({ listingId: listing.id, sessionId: s1, viewId: viewA, viewDurationMs: 0 })),
      msg(analyticsMessages.view({ listingId: listing.id, sessionId: s1, viewId: viewA, viewDurationMs: 30_000, scrollDepthPercent: 60 })),
      msg(analyticsMessages.view({ listingId: listing.id, sessionId: s1, viewId: viewA, viewDurationMs: 42_000, scrollDepthPercent: 40 })),
      // A second visit in the same session, and one from another session.
      msg(analyticsMessages.view({ listingId: listing.id, sessionId: s1, viewDurationMs: 8_000 })),
      msg(analyticsMessages.view({ listingId: listing.id, sessionId: s2, viewDurationMs: 10_000 })),
      msg(analyticsMessages.search(s2)),
    ];

    const result = await deliver(messages);

    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    const objects = await rawObjects();
    expect(objects).toHaveLength(1);
    expect(objects[0].key).toMatch(new RegExp(`^analytics/raw/day=${osloDay(new Date())}/[0-9a-f]{32}\\.ndjson$`));
    // 1 session + 3 events + 5 listing-view reports + 1 search.
    expect(objects[0].lines).toHaveLength(10);
    expect(objects[0].meta).toEqual({ messages: "8", records: "10" });
    expect(objects[0].lines.filter((l) => l.kind === "event").map((l) => l.index)).toEqual([0, 1, 2]);
    expect(new Set(objects[0].lines.map((l) => l.messageId))).toEqual(new Set(messages.map((m) => m.id)));

    expect(await rollup(listing.id)).toEqual({ views: 3, unique_sessions: 2, total_view_ms: 42_000 + 8_000 + 10_000 });
    const view = await env.DB.prepare("SELECT duration_ms, scroll_depth FROM analytics_listing_views WHERE view_id = ?1")
      .bind(viewA)
      .first();
    expect(view).toEqual({ duration_ms: 42_000, scroll_depth: 60 });
  });

  it("adds to the rollups of earlier batches", async () => {
    const listing = await createListing();
    await deliver([msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }))]);
    await deliver([msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 2_000 }))]);
    expect(await rollup(listing.id)).toEqual({ views: 2, unique_sessions: 2, total_view_ms: 3_000 });
    expect(await rawObjects()).toHaveLength(2);
  });

  it("keeps a view on the day it started when a later report comes after midnight", async () => {
    const listing = await createListing();
    const viewId = crypto.randomUUID();
    const evening = new Date("2026-11-20T22:59:50Z"); // 23:59:50 in Oslo
    const night = new Date("2026-11-20T23:00:20Z"); // 00:00:20 the next day in Oslo
    await deliver([msg(analyticsMessages.view({ listingId: listing.id, viewId, viewDurationMs: 0 }, evening))]);
    await deliver([msg(analyticsMessages.view({ listingId: listing.id, viewId, viewDurationMs: 30_000 }, night))]);
    expect(await rollup(listing.id, "2026-11-20")).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 30_000 });
    expect(await rollup(listing.id, "2026-11-21")).toBeNull();
  });

  it("writes one object per day when a batch spans midnight", async () => {
    const sessionId = crypto.randomUUID();
    await deliver([
      msg(analyticsMessages.events(sessionId, 1, new Date("2026-11-20T22:59:59Z"))),
      msg(analyticsMessages.events(sessionId, 2, new Date("2026-11-20T23:00:01Z"))),
    ]);
    const keys = (await rawObjects()).map((o) => o.key.split("/")[2]).sort();
    expect(keys).toEqual(["day=2026-11-20", "day=2026-11-21"]);
  });

  it("stores views of a listing that does not exist in R2 without failing the batch or making a rollup", async () => {
    const listing = await createListing();
    const ghost = crypto.randomUUID();
    const good = msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 5_000 }));
    const result = await deliver([msg(analyticsMessages.view({ listingId: ghost })), good]);
    expect(result.retryMessages).toEqual([]);
    expect(await rollup(ghost)).toBeNull();
    expect(await rollup(listing.id)).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 5_000 });
  });
});

describe("failures", () => {
  it("retries every message with backoff when R2 fails, and counts nothing", async () => {
    const logged = allowConsoleError("Analytics: batch failed");
    const listing = await createListing();
    const failingBucket = {
      put: async () => {
        throw new Error("R2 is down");
      },
    } as unknown as R2Bucket;
    const messages = [
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }), 1),
      msg(analyticsMessages.events(crypto.randomUUID(), 2), 3),
    ];

    const result = await deliver(messages, { ...env, PRIVATE: failingBucket });

    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([
      { msgId: messages[0].id, delaySeconds: 10 },
      { msgId: messages[1].id, delaySeconds: 40 },
    ]);
    expect(logged.calls()).toHaveLength(1);
    expect(await rollup(listing.id)).toBeNull();
    const processed = await env.DB.prepare("SELECT COUNT(*) AS n FROM analytics_processed_messages WHERE message_id IN (?1, ?2)")
      .bind(messages[0].id, messages[1].id)
      .first<{ n: number }>();
    expect(processed!.n).toBe(0);

    // The retry succeeds and counts once.
    const retried = await deliver(messages.map((m) => ({ ...m, attempts: (m.attempts ?? 1) + 1 })));
    expect(retried.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    expect(await rollup(listing.id)).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 1_000 });
  });

  it("retries when D1 fails after the raw object was written, and takes that object back so the retry stores the events once", async () => {
    allowConsoleError("Analytics: batch failed");
    const listing = await createListing();
    const failingDb = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch") return async () => Promise.reject(new Error("D1 is busy"));
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const messages = [
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 2_000 })),
      msg(analyticsMessages.events(crypto.randomUUID(), 4)),
    ];

    const failed = await deliver(messages, { ...env, DB: failingDb });
    expect(failed.retryMessages.map((r) => r.msgId).sort()).toEqual(messages.map((m) => m.id).sort());
    expect(await rollup(listing.id)).toBeNull();
    expect(await rawObjects()).toEqual([]);

    // The retry comes in another batch, with a newcomer.
    const newcomer = msg(analyticsMessages.events(crypto.randomUUID(), 1));
    await deliver([...messages.map((m) => ({ ...m, attempts: 2 })), newcomer]);
    const objects = await rawObjects();
    expect(objects).toHaveLength(1);
    expect(objects[0].lines).toHaveLength(6);
    expect(await rollup(listing.id)).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 2_000 });
  });

  it("retries a message that does not parse on its own, and counts the rest of the batch", async () => {
    const listing = await createListing();
    const bad = [
      msg({ v: 1, kind: "listing_view", receivedAt: new Date().toISOString(), day: osloDay(new Date()), view: { listingId: "x" } }, 2),
      msg("not json at all", 1),
      msg({ ...analyticsMessages.events(crypto.randomUUID(), 1), events: [{ eventType: "purchase" }] }, 5),
    ];
    const good = msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 3_000 }));

    const result = await deliver([bad[0], good, bad[1], bad[2]]);

    expect(result.explicitAcks).toEqual([good.id]);
    expect(result.retryMessages).toEqual([
      { msgId: bad[0].id, delaySeconds: 20 },
      { msgId: bad[1].id, delaySeconds: 10 },
      { msgId: bad[2].id, delaySeconds: 160 },
    ]);
    expect(await rollup(listing.id)).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 3_000 });
    const objects = await rawObjects();
    expect(objects).toHaveLength(1);
    expect(objects[0].lines.map((l) => l.messageId)).toEqual([good.id]);
  });

  it("grows the retry delay with each attempt, up to ten minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 320, 600, 600]);
  });
});

describe("idempotency on the message id", () => {
  it("does not count a redelivered batch twice, nor write it to R2 again", async () => {
    const listing = await createListing();
    const messages = [
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 4_000 })),
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 6_000 })),
      msg(analyticsMessages.events(crypto.randomUUID(), 3)),
    ];
    await deliver(messages);
    const before = await rawObjects();

    const again = await deliver(messages.map((m) => ({ ...m, attempts: 2 })));

    expect(again.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    expect(again.retryMessages).toEqual([]);
    expect(await rollup(listing.id)).toEqual({ views: 2, unique_sessions: 2, total_view_ms: 10_000 });
    expect(await rawObjects()).toEqual(before);
  });

  it("counts a message once when it is redelivered inside a batch with new messages", async () => {
    const listing = await createListing();
    const first = msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }));
    await deliver([first]);
    const second = msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 2_000 }));
    await deliver([{ ...first, attempts: 2 }, second]);
    expect(await rollup(listing.id)).toEqual({ views: 2, unique_sessions: 2, total_view_ms: 3_000 });
    const lines = (await rawObjects()).flatMap((o) => o.lines.map((l) => l.messageId));
    expect(lines.sort()).toEqual([first.id, second.id].sort());
  });

  it("stores and counts a message once when two deliveries of it race in different batches", async () => {
    allowConsoleError("Analytics: batch failed");
    const listing = await createListing();
    const shared = msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }));
    const a = msg(analyticsMessages.events(crypto.randomUUID(), 1));
    const b = msg(analyticsMessages.events(crypto.randomUUID(), 1));

    const results = await Promise.all([deliver([shared, a]), deliver([{ ...shared, attempts: 2 }, b])]);
    // Deliver again whatever was retried, as the queue would.
    const retried = results.flatMap((r) => r.retryMessages.map((x) => x.msgId));
    const byId = new Map([shared, a, b].map((m) => [m.id, m]));
    if (retried.length) await deliver(retried.map((id) => ({ ...byId.get(id)!, attempts: 3 })));

    const lines = (await rawObjects()).flatMap((o) => o.lines.map((l) => `${String(l.messageId)}#${String(l.index ?? 0)}`));
    expect(lines.sort()).toEqual([`${shared.id}#0`, `${a.id}#0`, `${b.id}#0`].sort());
    expect(await rollup(listing.id)).toEqual({ views: 1, unique_sessions: 1, total_view_ms: 1_000 });
  });
});

describe("working sets and retention", () => {
  it("purges processed ids and views after two days without lowering the rollups", async () => {
    const listing = await createListing();
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    const old = [
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }, threeDaysAgo)),
      msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 1_000 }, threeDaysAgo)),
    ];
    await deliver(old);
    const day = osloDay(threeDaysAgo);
    expect(await rollup(listing.id, day)).toEqual({ views: 2, unique_sessions: 2, total_view_ms: 2_000 });

    await purgeAnalytics(env, new Date(Date.now() + 2 * 86_400_000 + 60_000));

    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM analytics_listing_views WHERE listing_id = ?1")
      .bind(listing.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
    // A late report for that day cannot lower what was counted.
    await deliver([msg(analyticsMessages.view({ listingId: listing.id, viewDurationMs: 500 }, threeDaysAgo))]);
    expect(await rollup(listing.id, day)).toEqual({ views: 2, unique_sessions: 2, total_view_ms: 2_000 });
  });

  it("deletes raw events older than 90 days", async () => {
    const now = new Date("2026-11-20T12:00:00Z");
    await env.PRIVATE.put("analytics/raw/day=2026-08-21/old.ndjson", "{}\n"); // 91 days before
    await env.PRIVATE.put("analytics/raw/day=2026-08-22/kept.ndjson", "{}\n"); // 90 days before
    const { rawObjectsDeleted } = await purgeAnalytics(env, now);
    expect(rawObjectsDeleted).toBe(1);
    expect((await env.PRIVATE.list({ prefix: "analytics/raw/" })).objects.map((o) => o.key)).toEqual([
      "analytics/raw/day=2026-08-22/kept.ndjson",
    ]);
  });
});

describe("the dead-letter queue", () => {
  it("keeps each dead message in the private bucket and acknowledges it", async () => {
    const dead = msg({ kind: "purchase" }, 6);
    const result = await deliver([dead], env, "analytics-dlq");
    expect(result.explicitAcks).toEqual([dead.id]);
    const objects = await rawObjects("analytics/dead-letter/");
    expect(objects).toHaveLength(1);
    expect(objects[0].key).toBe(`analytics/dead-letter/day=${osloDay(new Date())}/${dead.id}.json`);
    expect(objects[0].lines[0]).toMatchObject({ id: dead.id, attempts: 6, body: { kind: "purchase" } });
  });
});
