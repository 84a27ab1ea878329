// listings.search_text for the listings that have none: those from before the language index
// (migration 0031), and one whose title an UPDATE changed without it (the search trigger then
// clears it). The hourly cron's "search-text" step writes it here, as the listing form does
// (worker/features/listings/edits.ts), and the update trigger indexes it (docs/decisions/151-search-language.md).
import { listingAttributes } from "../../../domain/listing-fields";
import { searchTextOf } from "../../../domain/search-language";
import type { Db } from "../../db/client";

/** Listings written per statement batch, and batches per run: a million old listings take about 200 runs. */
export const SEARCH_TEXT_BATCH = 500;
export const SEARCH_TEXT_BATCHES_PER_RUN = 10;

/** Write search_text for up to `batches` × SEARCH_TEXT_BATCH listings without it; returns how many were written. */
export async function fillSearchText(db: Db, batches = SEARCH_TEXT_BATCHES_PER_RUN): Promise<number> {
  const fields = listingAttributes().map((a) => a.key);
  let written = 0;
  for (let i = 0; i < batches; i++) {
    const { results } = await db
      .prepare(`SELECT id, title${fields.map((k) => `, ${k}`).join("")} FROM listings WHERE search_text IS NULL LIMIT ?1`)
      .bind(SEARCH_TEXT_BATCH)
      .all<Record<string, string | null>>();
    if (results.length === 0) break;
    // The title is checked again: an edit landing in between has written its own search_text.
    await db.batch(
      results.map((r) =>
        db.prepare("UPDATE listings SET search_text = ?2 WHERE id = ?1 AND search_text IS NULL AND title = ?3").bind(
          r.id,
          searchTextOf(
            r.title ?? "",
            fields.map((k) => r[k]),
          ),
          r.title,
        ),
      ),
    );
    written += results.length;
    if (results.length < SEARCH_TEXT_BATCH) break;
  }
  return written;
}
