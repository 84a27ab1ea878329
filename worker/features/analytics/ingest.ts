// The analytics endpoints' one job after validation: turn the request into one queue message with
// the server's time and Oslo day (docs/decisions/036-analytics-pipeline.md).
import { osloDay } from "../../../domain/format";
import type { AnalyticsEvents, AnalyticsSession, ListingViewReport, SearchTrack } from "../../../domain/schemas/analytics";
import type { AnalyticsMessage } from "../../../domain/schemas/analytics";
import type { Bindings } from "../../env";

export type AnalyticsPayload =
  | { kind: "session"; session: AnalyticsSession }
  | { kind: "events"; sessionId: string; events: AnalyticsEvents["events"] }
  | { kind: "listing_view"; view: ListingViewReport }
  | { kind: "search"; search: SearchTrack };

export async function enqueueAnalytics(env: Bindings, payload: AnalyticsPayload, now: Date = new Date()): Promise<void> {
  const message = { v: 1, receivedAt: now.toISOString(), day: osloDay(now), ...payload } satisfies AnalyticsMessage;
  await env.ANALYTICS_QUEUE.send(message, { contentType: "json" });
}
