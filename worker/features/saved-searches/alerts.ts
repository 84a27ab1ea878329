// Saved-search alerts (docs/decisions/041-saved-search-alerts.md): the "Straks" e-mails after each
// matching run, the daily digest from the hourly cron, the cron's catch-up matching, and the queue
// message a published listing sends.
//
// Every alert is claimed before it is sent: one conditional UPDATE moves the match rows from
// `pending` to `done` and returns those it moved, so two runs at once (queue retries, the cron)
// never mail the same match twice. A mail that fails puts its rows back to `pending` for the next
// run. A run that dies between claim and send loses that alert rather than sending it twice.
import { osloDay, osloHour } from "../../../domain/format";
import { SAVED_SEARCH_DIGEST_HOUR } from "../../../domain/saved-searches";
import type { Bindings } from "../../env";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import { sendMail, type Mail } from "../mail/mail";
import { digestMail, immediateAlertMail, type AlertListing, type AlertRecipient, type AlertSearch } from "./mail";
import { matchRidRange } from "./matching";

/** The queue a published listing is sent to for matching (wrangler.toml). */
export const SAVED_SEARCH_QUEUE = "saved-search-matching";

export interface ListingPublishedMessage {
  v: 1;
  listingId: string;
}

/** Queue a newly published listing for matching; the request does not wait for the match. */
export async function queueListingForAlerts(env: Bindings, listingId: string): Promise<void> {
  const message: ListingPublishedMessage = { v: 1, listingId };
  await env.SAVED_SEARCH_QUEUE.send(message, { contentType: "json" });
}

interface Claimed {
  saved_search_id: string;
  listing_id: string;
  user_id: string;
}

/** Claims of one statement, in chunks no larger than this (keeps a cron run within its limits). */
const CLAIM_LIMIT = 1000;
/** Users whose digest one cron run sends; the rest follow in the next hour's run. */
const DIGESTS_PER_RUN = 300;
/** Listings the cron's catch-up matches per run, in rowid chunks of this size. */
const CATCH_UP_CHUNK = 500;
const CATCH_UP_PER_RUN = 5000;
/** Matches and digest claims are kept this long ("n nye" counts within it). */
const KEEP_MATCHES_DAYS = 30;
const KEEP_DIGESTS_DAYS = 7;

interface Details {
  searches: Map<string, AlertSearch & AlertRecipient & { sendable: boolean }>;
  listings: Map<string, AlertListing>;
}

/** The saved searches, their owners' addresses and the still-listed listings of some claims. */
async function details(db: Db, claims: Claimed[]): Promise<Details> {
  const [searches, listings] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT s.id, s.name, s.query, s.user_id, u.email, p.display_name, (u.deleted_at IS NULL AND u.email_confirmed_at IS NOT NULL) AS sendable
         FROM saved_searches s JOIN users u ON u.id = s.user_id LEFT JOIN profiles p ON p.user_id = s.user_id
         WHERE s.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify([...new Set(claims.map((c) => c.saved_search_id))])),
    db
      .prepare(
        `SELECT l.id, l.title, l.price, l.is_free, l.seo_slug FROM listings l
         WHERE l.id IN (SELECT value FROM json_each(?1)) AND ${listedListingSql("l")} ORDER BY l.created_at DESC`,
      )
      .bind(JSON.stringify([...new Set(claims.map((c) => c.listing_id))])),
  ]);
  type SearchRow = AlertSearch & { email: string; display_name: string | null; sendable: number };
  return {
    searches: new Map(
      (searches.results as unknown as SearchRow[]).map((s) => [
        s.id,
        {
          id: s.id,
          name: s.name,
          query: s.query,
          user_id: s.user_id,
          email: s.email,
          displayName: s.display_name,
          sendable: s.sendable === 1,
        },
      ]),
    ),
    listings: new Map((listings.results as unknown as AlertListing[]).map((l) => [l.id, l])),
  };
}

/** Listings of `claims` still listed, newest first (the order of `details`). */
function listingsOf(d: Details, claims: Claimed[]): AlertListing[] {
  const ids = new Set(claims.map((c) => c.listing_id));
  return [...d.listings.values()].filter((l) => ids.has(l.id));
}

/** Put claimed rows back to pending after their mail failed. */
async function release(db: Db, claims: Claimed[]): Promise<void> {
  await db
    .prepare(
      `UPDATE saved_search_matches SET alert_state = 'pending', alerted_at = NULL
       WHERE alert_state = 'done' AND (saved_search_id, listing_id) IN (SELECT value->>'$[0]', value->>'$[1]' FROM json_each(?1))`,
    )
    .bind(JSON.stringify(claims.map((c) => [c.saved_search_id, c.listing_id])))
    .run();
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * One mail per group of claims (`compose` returns null when there is nothing to send). A mail that
 * fails gives its claims back (`giveBack`); after every group was tried, any failure is thrown, so a
 * queue batch is retried and a cron run is reported.
 */
async function sendEach(
  env: Bindings,
  groups: Map<string, Claimed[]>,
  compose: (key: string, claims: Claimed[]) => Promise<Mail | null>,
  giveBack: (key: string, claims: Claimed[]) => Promise<void>,
): Promise<number> {
  let sent = 0;
  const failures: unknown[] = [];
  for (const [key, claims] of groups) {
    try {
      const mail = await compose(key, claims);
      if (!mail) continue;
      await sendMail(env, mail);
      sent++;
    } catch (error) {
      failures.push(error);
      await giveBack(key, claims);
    }
  }
  if (failures.length) throw new AggregateError(failures, `${failures.length} saved-search alert mail(s) failed`);
  return sent;
}

export interface DeliveryStats {
  claimed: number;
  mails: number;
}

/**
 * "Straks": claim the pending matches of saved searches with an immediate alert (of the given
 * listings, or any when none are given) and send one mail per saved search. Throws after trying
 * every mail when one failed, so a queue batch is retried; the failed ones are pending again.
 */
export async function deliverImmediateAlerts(
  env: Bindings,
  db: Db,
  listingIds: readonly string[] | null,
  now: Date = new Date(),
): Promise<DeliveryStats> {
  const scope = listingIds
    ? db
        .prepare(
          `UPDATE saved_search_matches SET alert_state = 'done', alerted_at = ?2
           WHERE alert_state = 'pending' AND listing_id IN (SELECT value FROM json_each(?1))
             AND saved_search_id IN (SELECT id FROM saved_searches WHERE alert = 'immediate')
           RETURNING saved_search_id, listing_id, user_id`,
        )
        .bind(JSON.stringify([...new Set(listingIds)]), now.toISOString())
    : db
        .prepare(
          `UPDATE saved_search_matches SET alert_state = 'done', alerted_at = ?1
           WHERE (saved_search_id, listing_id) IN (
             SELECT m.saved_search_id, m.listing_id FROM saved_search_matches m JOIN saved_searches s ON s.id = m.saved_search_id
             WHERE m.alert_state = 'pending' AND s.alert = 'immediate' LIMIT ?2)
           AND alert_state = 'pending'
           RETURNING saved_search_id, listing_id, user_id`,
        )
        .bind(now.toISOString(), CLAIM_LIMIT);
  const claims = (await scope.all<Claimed>()).results;
  if (claims.length === 0) return { claimed: 0, mails: 0 };
  const d = await details(db, claims);
  const mails = await sendEach(
    env,
    groupBy(claims, (c) => c.saved_search_id),
    async (searchId, own) => {
      const search = d.searches.get(searchId);
      const listings = listingsOf(d, own);
      // A listing sold or hidden before its alert, or an owner who cannot receive mail: nothing to send.
      return search?.sendable && listings.length ? immediateAlertMail(env, search, search, listings, now) : null;
    },
    (_searchId, own) => release(db, own),
  );
  return { claimed: claims.length, mails };
}

/**
 * The daily digest: one mail per user and Oslo day with the pending matches of their saved
 * searches that have a daily alert. A user's digest of the day is claimed by inserting its row
 * (user, day) together with the claim of the rows, in one D1 batch, so two cron runs at once send
 * it once; a match that arrives after the day's digest waits for the next day's.
 */
export async function sendDailyDigests(env: Bindings, db: Db, now: Date = new Date()): Promise<DeliveryStats> {
  const day = osloDay(now);
  const claim = crypto.randomUUID();
  const at = now.toISOString();
  const [, claimedRows] = await db.batch<Claimed>([
    db
      .prepare(
        `INSERT INTO saved_search_digests (user_id, day, claim, created_at)
         SELECT DISTINCT m.user_id, ?1, ?2, ?3 FROM saved_search_matches m JOIN saved_searches s ON s.id = m.saved_search_id
         WHERE m.alert_state = 'pending' AND s.alert = 'daily'
           AND NOT EXISTS (SELECT 1 FROM saved_search_digests d WHERE d.user_id = m.user_id AND d.day = ?1)
         LIMIT ?4
         ON CONFLICT DO NOTHING`,
      )
      .bind(day, claim, at, DIGESTS_PER_RUN),
    db
      .prepare(
        `UPDATE saved_search_matches SET alert_state = 'done', alerted_at = ?3
         WHERE alert_state = 'pending'
           AND user_id IN (SELECT user_id FROM saved_search_digests WHERE day = ?1 AND claim = ?2)
           AND saved_search_id IN (SELECT id FROM saved_searches WHERE alert = 'daily')
         RETURNING saved_search_id, listing_id, user_id`,
      )
      .bind(day, claim, at),
  ]);
  const claims = claimedRows.results;
  if (claims.length === 0) return { claimed: 0, mails: 0 };
  const d = await details(db, claims);
  const mails = await sendEach(
    env,
    groupBy(claims, (c) => c.user_id),
    async (_userId, own) => {
      let recipient: (AlertRecipient & { sendable: boolean }) | undefined;
      const groups: { search: AlertSearch; listings: AlertListing[] }[] = [];
      for (const [searchId, rows] of groupBy(own, (c) => c.saved_search_id)) {
        const search = d.searches.get(searchId);
        const listings = listingsOf(d, rows);
        if (!search || listings.length === 0) continue;
        recipient = search;
        groups.push({ search, listings });
      }
      if (!recipient?.sendable || groups.length === 0) return null;
      groups.sort((a, b) => a.search.name.localeCompare(b.search.name, "nb"));
      return digestMail(env, recipient, groups, now);
    },
    // Give the day's digest back: the next run claims and sends it again.
    async (userId, own) => {
      await db.prepare("DELETE FROM saved_search_digests WHERE user_id = ?1 AND day = ?2 AND claim = ?3").bind(userId, day, claim).run();
      await release(db, own);
    },
  );
  return { claimed: claims.length, mails };
}

/**
 * The cron's catch-up: match every public listing the matcher has not seen yet (by search rowid,
 * from the cursor), so a listing whose queue message was lost is still matched within the hour.
 * Listings the queue has matched already are matched again, which changes nothing.
 */
export async function catchUpMatching(db: Db, now: Date = new Date()): Promise<{ from: number; to: number; listings: number }> {
  const [cursorRow, topRow, sinceRow] = await db.batch<{ rid: number | null }>([
    db.prepare("SELECT rid FROM saved_search_cursor WHERE id = 1"),
    db.prepare("SELECT MAX(rid) AS rid FROM listing_search_map"),
    db.prepare("SELECT MIN(since_rid) AS rid FROM saved_searches"),
  ]);
  const top = topRow.results[0]?.rid ?? 0;
  const since = sinceRow.results[0]?.rid;
  const start = Math.max(cursorRow.results[0]?.rid ?? 0, since ?? top);
  let from = start;
  let listings = 0;
  while (from < top && from - start < CATCH_UP_PER_RUN) {
    const to = Math.min(from + CATCH_UP_CHUNK, top);
    listings += (await matchRidRange(db, from, to, now)).listings;
    from = to;
  }
  await db
    .prepare(
      "INSERT INTO saved_search_cursor (id, rid, updated_at) VALUES (1, ?1, ?2) ON CONFLICT (id) DO UPDATE SET rid = MAX(rid, excluded.rid), updated_at = excluded.updated_at",
    )
    .bind(from, now.toISOString())
    .run();
  return { from: start, to: from, listings };
}

/** Matches older than a month and digest claims older than a week are not needed any more. */
export async function purgeSavedSearchHistory(db: Db, now: Date = new Date()): Promise<void> {
  const matchesBefore = new Date(now.getTime() - KEEP_MATCHES_DAYS * 86_400_000).toISOString();
  const digestsBefore = osloDay(new Date(now.getTime() - KEEP_DIGESTS_DAYS * 86_400_000));
  await db.batch([
    db.prepare("DELETE FROM saved_search_matches WHERE matched_at < ?1").bind(matchesBefore),
    db.prepare("DELETE FROM saved_search_digests WHERE day < ?1").bind(digestsBefore),
  ]);
}

/**
 * The hourly cron's part: catch-up matching, the "Straks" alerts still pending, the daily digest
 * from SAVED_SEARCH_DIGEST_HOUR on (Oslo time), and the purge.
 */
export async function runSavedSearchCron(env: Bindings, now: Date = new Date()): Promise<void> {
  const db = env.DB;
  const steps: [string, () => Promise<unknown>][] = [
    ["catch-up matching", () => catchUpMatching(db, now)],
    ["immediate alerts", () => deliverImmediateAlerts(env, db, null, now)],
    ["daily digest", () => (osloHour(now) >= SAVED_SEARCH_DIGEST_HOUR ? sendDailyDigests(env, db, now) : Promise.resolve())],
    ["purge", () => purgeSavedSearchHistory(db, now)],
  ];
  // One failing step (a mail provider outage) does not keep the others from running.
  const failures: unknown[] = [];
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(new Error(`saved searches: ${name} failed`, { cause: error }));
    }
  }
  if (failures.length) throw new AggregateError(failures, "saved-search cron failed");
}
