-- Made by worker/features/search/fold-sql.ts from domain/listing-fields.ts and domain/search.ts: the search
-- triggers for the listing's declared fields (new filter columns: brand).
ALTER TABLE `listing_search_map` ADD `brand` text;
--> statement-breakpoint
CREATE INDEX `listing_search_public_brand_idx` ON `listing_search_map` (`is_public`, `brand`, `created_at`);
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
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_au_text`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description, brand ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), replace(replace(lower(replace(replace(replace(replace(replace(replace(coalesce(new.description, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(new.title || ' ' || coalesce(new.brand, ''), 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
END;
