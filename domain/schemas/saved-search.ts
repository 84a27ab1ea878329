import { z } from "./zod";
import {
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  SAVED_SEARCH_TEXTS,
  DEFAULT_SAVED_SEARCH_ALERT,
  type SavedSearchAlert,
} from "../saved-searches";
import { singleLineText } from "./user-text";

const name = singleLineText(SAVED_SEARCH_TEXTS.nameRequired).pipe(
  z.string().trim().min(1, SAVED_SEARCH_TEXTS.nameRequired).max(SAVED_SEARCH_NAME_MAX_LENGTH, SAVED_SEARCH_TEXTS.nameTooLong),
);

const alert = z.enum(SAVED_SEARCH_ALERTS, { error: SAVED_SEARCH_TEXTS.alertInvalid });

/**
 * "Lagre søk": a name, the search page's query string (`location.search`; the server keeps its
 * canonical form from domain/searchUrl.ts, so unknown or malformed parameters are dropped) and when
 * to alert. Unknown keys (user_id, counts) are stripped.
 */
export const savedSearchCreateSchema = z.object({
  name,
  query: z.string({ error: SAVED_SEARCH_TEXTS.emptySearch }).max(2000, SAVED_SEARCH_TEXTS.emptySearch),
  alert: alert.optional().default(DEFAULT_SAVED_SEARCH_ALERT),
});
export type SavedSearchCreate = z.input<typeof savedSearchCreateSchema>;

/** Rename, change the alert, or both. */
export const savedSearchUpdateSchema = z
  .object({ name: name.optional(), alert: alert.optional() })
  .refine((v) => v.name !== undefined || v.alert !== undefined, { message: SAVED_SEARCH_TEXTS.nothingToChange });
export type SavedSearchUpdate = z.input<typeof savedSearchUpdateSchema>;

/** The one-click unsubscribe link's token (worker/features/saved-searches/unsubscribe-token.ts). */
export const unsubscribeSchema = z.object({
  token: z
    .string({ error: SAVED_SEARCH_TEXTS.linkInvalid })
    .min(1, SAVED_SEARCH_TEXTS.linkInvalid)
    .max(300, SAVED_SEARCH_TEXTS.linkInvalid),
});

/** A saved search as its owner sees it on "Lagrede søk". */
export interface SavedSearch {
  id: string;
  name: string;
  /** Canonical search query (no "?"): /search?{query} opens it. */
  query: string;
  alert: SavedSearchAlert;
  /** Listed matches that arrived since the owner last opened it, counted up to SAVED_SEARCH_NEW_CAP + 1. */
  new_count: number;
  created_at: string;
}
