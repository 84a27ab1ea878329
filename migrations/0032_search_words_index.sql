-- Made by worker/features/search/fold-sql.ts from domain/listing-fields.ts and domain/search.ts: the search
-- triggers, and the word index (docs/decisions/151-search-language.md, "Ranking"): the title's words
-- and its stemmed words as tokens, for the tiers that ask for a whole word; filled from every listing.
CREATE VIRTUAL TABLE `listings_words` USING fts5(title, stems, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
--> statement-breakpoint
INSERT INTO listings_words(rowid, title, stems) SELECT s.rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(l.title || ' ' || coalesce(l.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), coalesce(coalesce(l.search_text, '{}') ->> '$.stems', '') FROM listing_search_map s JOIN listings l ON l.id = s.listing_id;
--> statement-breakpoint
DROP TRIGGER `listings_search_ad`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ad` AFTER DELETE ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_stems WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_words WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listing_search_map WHERE listing_id = old.id;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_au`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au` AFTER UPDATE ON `listings` BEGIN
	UPDATE listing_search_map SET is_public = (new.status = 'active' AND new.is_hidden = 0), category = new.category, age_range = new.age_range,
		condition_rating = new.condition_rating, price = coalesce(new.price, 0), is_free = new.is_free, is_trade_offer = new.is_trade_offer,
		postal_code = new.postal_code, created_at = new.created_at, brand = replace(replace(lower(replace(replace(replace(replace(replace(replace(new.brand, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a')
	WHERE listing_id = old.id;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_ai`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN
	INSERT INTO listing_search_map(listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at, brand) VALUES (new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.brand, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'));
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_stems(rowid, title) SELECT rid, coalesce(coalesce(new.search_text, '{}') ->> '$.stems', '') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_words(rowid, title, stems) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), coalesce(coalesce(new.search_text, '{}') ->> '$.stems', '') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO search_words(word, key, stem, display, listings) SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, 1 FROM json_each(coalesce(new.search_text, '{}'), '$.words') j WHERE 1 ON CONFLICT(word) DO UPDATE SET listings = listings + 1;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_au_text`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description, brand, search_text ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_stems WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_words WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_stems(rowid, title) SELECT rid, CASE WHEN new.search_text IS old.search_text AND (new.title IS NOT old.title OR new.brand IS NOT old.brand) THEN '' ELSE coalesce(coalesce(new.search_text, '{}') ->> '$.stems', '') END FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_words(rowid, title, stems) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), CASE WHEN new.search_text IS old.search_text AND (new.title IS NOT old.title OR new.brand IS NOT old.brand) THEN '' ELSE coalesce(coalesce(new.search_text, '{}') ->> '$.stems', '') END FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO search_words(word, key, stem, display, listings) SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, 1 FROM json_each(coalesce(new.search_text, '{}'), '$.words') j WHERE (j.value ->> 0) NOT IN (SELECT o.value ->> 0 FROM json_each(coalesce(old.search_text, '{}'), '$.words') o) AND NOT (new.search_text IS old.search_text AND (new.title IS NOT old.title OR new.brand IS NOT old.brand)) ON CONFLICT(word) DO UPDATE SET listings = listings + 1;
	UPDATE listings SET search_text = NULL WHERE id = new.id AND new.search_text IS old.search_text AND (new.title IS NOT old.title OR new.brand IS NOT old.brand);
END;
