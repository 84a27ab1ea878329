// Saved searches for worker tests, created through the service (so the matching index is filled
// exactly as the API fills it).
import { env } from "cloudflare:workers";
import type { SavedSearchAlert } from "../../domain/saved-searches";
import { createSavedSearch as create } from "../../worker/features/saved-searches/saved-searches";

let sequence = 0;

export async function createSavedSearch(
  userId: string,
  query: string,
  overrides: { name?: string; alert?: SavedSearchAlert } = {},
  db: D1Database = env.DB,
) {
  sequence += 1;
  return create(db, userId, { name: overrides.name ?? `Søk ${sequence}`, query, alert: overrides.alert ?? "immediate" });
}
