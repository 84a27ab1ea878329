import { Hono } from "hono";
import { RAW_EVENTS_PREFIX } from "../../../domain/analytics";
import type { AppEnv } from "../../env";
import { noStore } from "../../middleware/cache";
import { localOnly } from "../../middleware/local-only";

interface RawObjectSummary {
  key: string;
  messages: number;
  records: number;
}

/**
 * Local mode only (404 elsewhere): what the analytics consumer has stored, for the benchmark
 * (`npm run bench:analytics`) and for looking at a local run. By default it counts from the objects'
 * metadata (cheap, for polling); `?full=1` reads every raw object to count records and duplicates
 * by (message id, index).
 */
export const devAnalyticsRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .use(noStore)
  .get("/summary", async (c) => {
    const full = c.req.query("full") === "1";
    const objects: RawObjectSummary[] = [];
    const seenRecords = new Set<string>();
    const seenMessages = new Set<string>();
    let records = 0;
    const kinds: Record<string, number> = {};
    let cursor: string | undefined;
    do {
      const listed = await c.env.PRIVATE.list({ prefix: RAW_EVENTS_PREFIX, cursor, include: ["customMetadata"] });
      for (const object of listed.objects) {
        if (!full) {
          const count = Number(object.customMetadata?.records ?? 0);
          records += count;
          objects.push({ key: object.key, messages: Number(object.customMetadata?.messages ?? 0), records: count });
          continue;
        }
        const body = await c.env.PRIVATE.get(object.key);
        if (!body) continue;
        const lines = (await body.text()).split("\n").filter(Boolean);
        for (const line of lines) {
          const record = JSON.parse(line) as { messageId: string; kind: string; index?: number };
          records++;
          kinds[record.kind] = (kinds[record.kind] ?? 0) + 1;
          seenMessages.add(record.messageId);
          seenRecords.add(`${record.messageId}#${record.index ?? 0}`);
        }
        objects.push({ key: object.key, messages: Number(object.customMetadata?.messages ?? 0), records: lines.length });
      }
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);

    const rollups = await c.env.DB.prepare(
      "SELECT COUNT(*) AS rows, COALESCE(SUM(views), 0) AS views, COALESCE(SUM(unique_sessions), 0) AS unique_sessions, COALESCE(SUM(total_view_ms), 0) AS total_view_ms FROM listing_stats_daily",
    ).first<{ rows: number; views: number; unique_sessions: number; total_view_ms: number }>();
    const processed = await c.env.DB.prepare("SELECT COUNT(*) AS n FROM analytics_processed_messages").first<{ n: number }>();
    return c.json({
      objects,
      records,
      ...(full ? { distinct_records: seenRecords.size, messages: seenMessages.size, kinds } : {}),
      processed_messages: processed?.n ?? 0,
      rollups,
    });
  });
