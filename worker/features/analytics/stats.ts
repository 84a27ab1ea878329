// Seller statistics (docs/product.md "Server calls" get_listing_analytics): views, unique sessions and view time from
// the daily rollups; favourites, conversations started and trade offers from the rows themselves.
// Only the owner, moderators and admins may read them; anyone else gets 404.
import { osloDay } from "../../../domain/format";
import type { ListingAnalytics, ListingStatsDay, ListingStatsSummary } from "../../../domain/schemas/analytics";
import { hasStaffRights } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import type { Actor } from "../../env";
import { AppError } from "../../lib/errors";
import { ANALYTICS_REFUSALS } from "../../../domain/analytics";

/** The Oslo days from `daysBack - 1` days before `now` up to today, oldest first. */
export function dayRange(daysBack: number, now: Date = new Date()): string[] {
  const today = osloDay(now);
  // Step calendar dates at noon UTC: no daylight-saving edge can skip or repeat a day.
  const base = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: daysBack }, (_, i) => new Date(base - (daysBack - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

async function assertMayRead(db: Db, actor: Actor, listingId: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(listingId)) throw new AppError("NOT_FOUND", ANALYTICS_REFUSALS.statsNotFound);
  const row = await db
    .prepare("SELECT user_id, status FROM listings WHERE id = ?1")
    .bind(listingId)
    .first<{ user_id: string; status: string }>();
  if (!row) throw new AppError("NOT_FOUND", ANALYTICS_REFUSALS.statsNotFound);
  const owner = row.user_id === actor.id && row.status !== "deleted";
  if (!owner && !hasStaffRights(actor)) throw new AppError("NOT_FOUND", ANALYTICS_REFUSALS.statsNotFound);
}

/** Counts per Oslo day from per-hour UTC counts (SQLite knows no Oslo time; hours are exact). */
function addHourly(
  target: Map<string, ListingStatsDay>,
  rows: { hour: string; n: number }[],
  key: "favourites" | "messages_started" | "trade_offers",
) {
  for (const { hour, n } of rows) {
    const day = target.get(osloDay(new Date(`${hour}:00:00Z`)));
    if (day) day[key] += n;
  }
}

export async function getListingAnalytics(
  db: Db,
  actor: Actor,
  listingId: string,
  daysBack: number,
  now: Date = new Date(),
): Promise<ListingAnalytics> {
  await assertMayRead(db, actor, listingId);
  const days = dayRange(daysBack, now);
  const from = days[0];
  const to = days[days.length - 1];
  // Oslo is UTC+1 or +2: rows from two hours before the first UTC midnight may belong to the first day.
  const since = new Date(Date.parse(`${from}T00:00:00Z`) - 2 * 3_600_000).toISOString();
  const hourly = (table: string, column: string) =>
    db
      .prepare(
        `SELECT substr(created_at, 1, 13) AS hour, COUNT(*) AS n FROM ${table} WHERE ${column} = ?1 AND created_at >= ?2 GROUP BY hour`,
      )
      .bind(listingId, since);
  const [rollups, favourites, conversations, offers] = await db.batch([
    db
      .prepare("SELECT day, views, unique_sessions, total_view_ms FROM listing_stats_daily WHERE listing_id = ?1 AND day BETWEEN ?2 AND ?3")
      .bind(listingId, from, to),
    hourly("favourites", "listing_id"),
    hourly("conversations", "listing_id"),
    hourly("trade_offers", "requested_listing_id"),
  ]);

  const byDay = new Map<string, ListingStatsDay & { total_view_ms: number }>(
    days.map((day) => [
      day,
      { day, views: 0, unique_sessions: 0, avg_view_ms: null, favourites: 0, messages_started: 0, trade_offers: 0, total_view_ms: 0 },
    ]),
  );
  for (const r of rollups.results as { day: string; views: number; unique_sessions: number; total_view_ms: number }[]) {
    const day = byDay.get(r.day);
    if (!day) continue;
    day.views = r.views;
    day.unique_sessions = r.unique_sessions;
    day.total_view_ms = r.total_view_ms;
  }
  addHourly(byDay, favourites.results as { hour: string; n: number }[], "favourites");
  addHourly(byDay, conversations.results as { hour: string; n: number }[], "messages_started");
  addHourly(byDay, offers.results as { hour: string; n: number }[], "trade_offers");

  const totals = { views: 0, unique_sessions: 0, avg_view_ms: null as number | null, favourites: 0, messages_started: 0, trade_offers: 0 };
  let totalMs = 0;
  const out: ListingStatsDay[] = [];
  for (const { total_view_ms, ...day } of byDay.values()) {
    day.avg_view_ms = day.views > 0 ? Math.round(total_view_ms / day.views) : null;
    totals.views += day.views;
    totals.unique_sessions += day.unique_sessions;
    totals.favourites += day.favourites;
    totals.messages_started += day.messages_started;
    totals.trade_offers += day.trade_offers;
    totalMs += total_view_ms;
    out.push(day);
  }
  totals.avg_view_ms = totals.views > 0 ? Math.round(totalMs / totals.views) : null;
  return { listing_id: listingId, days_back: daysBack, from, to, totals, days: out };
}

/** Views and unique sessions per own listing over the last `daysBack` days ("Mine annonser"). */
export async function ownListingsStats(db: Db, actor: Actor, daysBack: number, now: Date = new Date()): Promise<ListingStatsSummary[]> {
  const from = dayRange(daysBack, now)[0];
  const { results } = await db
    .prepare(
      `SELECT s.listing_id, SUM(s.views) AS views, SUM(s.unique_sessions) AS unique_sessions
       FROM listing_stats_daily s JOIN listings l ON l.id = s.listing_id
       WHERE l.user_id = ?1 AND l.status <> 'deleted' AND s.day >= ?2
       GROUP BY s.listing_id`,
    )
    .bind(actor.id, from)
    .all<ListingStatsSummary>();
  return results;
}
