// Saved searches of one user ("Lagrede søk"): create, list with new matches, rename, change the
// alert, delete, mark seen; and the unsubscribe link. Only the owner reaches their saved searches:
// every statement carries `user_id = actor`, and anything else answers 404.
import { MAX_SAVED_SEARCHES, SAVED_SEARCH_NEW_CAP, SAVED_SEARCH_TEXTS } from "../../../domain/saved-searches";
import type { SavedSearch, SavedSearchCreate, SavedSearchUpdate } from "../../../domain/schemas/saved-search";
import type { Bindings } from "../../env";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { verifyUnsubscribeToken } from "./unsubscribe-token";
import { canonicalQuery, indexKeys, isEmptySpec, matchSpec } from "./match-index";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Listed matches above the last visit, counted up to the cap + 1 (the page shows "99+"). */
const NEW_COUNT_SQL = `(SELECT COUNT(*) FROM (SELECT 1 FROM saved_search_matches m JOIN listings l ON l.id = m.listing_id
  WHERE m.saved_search_id = s.id AND m.listing_rid > s.seen_rid AND ${listedListingSql("l")} LIMIT ${SAVED_SEARCH_NEW_CAP + 1}))`;

const notFound = () => new AppError("NOT_FOUND", SAVED_SEARCH_TEXTS.notFound);

export async function listSavedSearches(db: Db, userId: string): Promise<SavedSearch[]> {
  const rows = await db
    .prepare(
      `SELECT s.id, s.name, s.query, s.alert, s.created_at, ${NEW_COUNT_SQL} AS new_count FROM saved_searches s WHERE s.user_id = ?1 ORDER BY s.created_at DESC, s.id`,
    )
    .bind(userId)
    .all<SavedSearch>();
  return rows.results;
}

async function getSavedSearch(db: Db, userId: string, id: string): Promise<SavedSearch> {
  const row = await db
    .prepare(
      `SELECT s.id, s.name, s.query, s.alert, s.created_at, ${NEW_COUNT_SQL} AS new_count FROM saved_searches s WHERE s.id = ?1 AND s.user_id = ?2`,
    )
    .bind(id, userId)
    .first<SavedSearch>();
  if (!row) throw notFound();
  return row;
}

/**
 * The in-app badge: saved searches with an alert (not "Av") that have new listed matches since
 * their last visit (docs/decisions/041-saved-search-alerts.md).
 */
export async function savedSearchBadge(db: Db, userId: string): Promise<{ count: number }> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM saved_searches s WHERE s.user_id = ?1 AND s.alert <> 'off' AND EXISTS (
         SELECT 1 FROM saved_search_matches m JOIN listings l ON l.id = m.listing_id
         WHERE m.saved_search_id = s.id AND m.listing_rid > s.seen_rid AND ${listedListingSql("l")})`,
    )
    .bind(userId)
    .first<{ n: number }>();
  return { count: row?.n ?? 0 };
}

/**
 * Save the canonical form of a search (domain/searchUrl.ts). The search starts at the newest
 * listing: only listings published afterwards are its matches. At most MAX_SAVED_SEARCHES per user
 * and one per set of filters (the sort order aside), both enforced by the INSERT itself, so two
 * saves at once cannot pass either limit.
 */
export async function createSavedSearch(db: Db, userId: string, input: Required<SavedSearchCreate>): Promise<SavedSearch> {
  const { query, filtersKey, filters } = canonicalQuery(input.query);
  const spec = matchSpec(filters);
  if (isEmptySpec(spec)) throw new AppError("VALIDATION", SAVED_SEARCH_TEXTS.emptySearch, { query: SAVED_SEARCH_TEXTS.emptySearch });
  const id = crypto.randomUUID();
  const now = nowIso();
  const [inserted] = await db.batch<{ id: string }>([
    db
      .prepare(
        `INSERT INTO saved_searches (id, user_id, name, query, filters_key, alert, since_rid, seen_rid, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, r.rid, r.rid, ?7, ?7 FROM (SELECT COALESCE(MAX(rid), 0) AS rid FROM listing_search_map) r
         WHERE (SELECT COUNT(*) FROM saved_searches WHERE user_id = ?2) < ?8
         ON CONFLICT (user_id, filters_key) DO NOTHING
         RETURNING id`,
      )
      .bind(id, userId, input.name, query, filtersKey, input.alert, now, MAX_SAVED_SEARCHES),
    db
      .prepare(
        "INSERT INTO saved_search_keys (key, saved_search_id) SELECT value, ?1 FROM json_each(?2) WHERE EXISTS (SELECT 1 FROM saved_searches WHERE id = ?1)",
      )
      .bind(id, JSON.stringify(indexKeys(spec))),
  ]);
  if (inserted.results.length === 0) {
    const duplicate = await db
      .prepare("SELECT 1 FROM saved_searches WHERE user_id = ?1 AND filters_key = ?2")
      .bind(userId, filtersKey)
      .first();
    throw new AppError("CONFLICT", duplicate ? SAVED_SEARCH_TEXTS.duplicate : SAVED_SEARCH_TEXTS.tooMany);
  }
  return getSavedSearch(db, userId, id);
}

/** Rename and/or change the alert. Turning the alert off also drops alerts not sent yet. */
export async function updateSavedSearch(db: Db, userId: string, id: string, change: SavedSearchUpdate): Promise<SavedSearch> {
  if (!UUID.test(id)) throw notFound();
  const [updated] = await db.batch([
    db
      .prepare(
        "UPDATE saved_searches SET name = COALESCE(?3, name), alert = COALESCE(?4, alert), updated_at = ?5 WHERE id = ?1 AND user_id = ?2 RETURNING id",
      )
      .bind(id, userId, change.name ?? null, change.alert ?? null, nowIso()),
    dropPendingAlerts(db, id, userId),
  ]);
  if (updated.results.length === 0) throw notFound();
  return getSavedSearch(db, userId, id);
}

/** Pending alerts of a search whose alert is now off will never be sent. */
function dropPendingAlerts(db: Db, id: string, userId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE saved_search_matches SET alert_state = 'off' WHERE saved_search_id = ?1 AND alert_state = 'pending'
       AND EXISTS (SELECT 1 FROM saved_searches WHERE id = ?1 AND user_id = ?2 AND alert = 'off')`,
    )
    .bind(id, userId);
}

/** Deleting a saved search deletes its index keys and matches with it (foreign keys cascade). */
export async function deleteSavedSearch(db: Db, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound();
  const result = await db.prepare("DELETE FROM saved_searches WHERE id = ?1 AND user_id = ?2").bind(id, userId).run();
  if (!result.meta.changes) throw notFound();
}

/** The owner opened the search: what is listed now is no longer new. */
export async function markSavedSearchSeen(db: Db, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound();
  const result = await db
    .prepare(
      "UPDATE saved_searches SET seen_rid = MAX(seen_rid, (SELECT COALESCE(MAX(rid), 0) FROM listing_search_map)) WHERE id = ?1 AND user_id = ?2",
    )
    .bind(id, userId)
    .run();
  if (!result.meta.changes) throw notFound();
}

/**
 * The unsubscribe link: switches off the alert of the one saved search the token names, for the
 * user it names, without a session. A forged or altered token, or one past its date, changes nothing.
 */
export async function unsubscribeSavedSearch(env: Bindings, db: Db, token: string, now: Date = new Date()): Promise<{ name: string }> {
  const check = await verifyUnsubscribeToken(env, token, now);
  if (!check.ok)
    throw new AppError("INVALID_CODE", check.reason === "expired" ? SAVED_SEARCH_TEXTS.linkExpired : SAVED_SEARCH_TEXTS.linkInvalid);
  const { savedSearchId, userId } = check.claims;
  const [updated] = await db.batch<{ name: string }>([
    db
      .prepare("UPDATE saved_searches SET alert = 'off', updated_at = ?3 WHERE id = ?1 AND user_id = ?2 RETURNING name")
      .bind(savedSearchId, userId, now.toISOString()),
    dropPendingAlerts(db, savedSearchId, userId),
  ]);
  const row = updated.results[0];
  if (!row) throw new AppError("NOT_FOUND", SAVED_SEARCH_TEXTS.linkGone);
  return { name: row.name };
}

/** Everything stored about a user's saved searches, for "Last ned mine data". */
export async function exportSavedSearches(db: Db, userId: string): Promise<Record<string, unknown>[]> {
  const rows = await db
    .prepare("SELECT id, name, query, alert, created_at, updated_at FROM saved_searches WHERE user_id = ?1 ORDER BY created_at")
    .bind(userId)
    .all<Record<string, unknown>>();
  return rows.results;
}
