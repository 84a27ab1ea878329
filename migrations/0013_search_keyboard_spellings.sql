-- Made by worker/features/search/fold-sql.ts from domain/search.ts (LETTER_FOLDS, SPELLING_FOLDS):
-- keyboard spellings. A parent without a Norwegian keyboard types "boeker" for "bøker", "haakon" for
-- "håkon" (and "aerlig" for "ærlig", which the ø→o, æ→ae, å→a fold of 0001 already matches). The
-- indexed copy is lowercased (ASCII, as SQLite's lower()) after that fold, and then "oe"→"o" and
-- "aa"→"a", so "bøker", "Bøker" and "boeker" all index as "boker", "Håkon" and "Haakon" as "hakon".
-- The query is folded the same way (domain/search.ts `foldNorwegian`), so a word with a real
-- "oe"/"aa" ("Joel", "Saab") indexes and searches as "jol"/"sab" and still finds itself.
-- See docs/decisions/004-search-index.md and 090-phone-findings.md.
-- The triggers are replaced (same events and order as 0008) and the three FTS tables rebuilt.
DROP TRIGGER `listings_search_ai`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN
	INSERT INTO listing_search_map(listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at) VALUES (new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_au_text`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
DELETE FROM listings_fts;
--> statement-breakpoint
DELETE FROM listings_fts_trigram;
--> statement-breakpoint
DELETE FROM listings_title_trigram;
--> statement-breakpoint
INSERT INTO listings_fts(rowid, title, description) SELECT s.rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(l.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(l.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map s JOIN listings l ON l.id = s.listing_id;
--> statement-breakpoint
INSERT INTO listings_fts_trigram(rowid, title, description) SELECT s.rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(l.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(l.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map s JOIN listings l ON l.id = s.listing_id;
--> statement-breakpoint
INSERT INTO listings_title_trigram(rowid, title) SELECT s.rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(l.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map s JOIN listings l ON l.id = s.listing_id;
