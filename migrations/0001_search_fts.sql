-- Hand-written: search over listings (drizzle has no virtual tables). See docs/decisions/004-search-index.md.
-- listing_search_map is a narrow projection of every listing with a stable integer rowid (rid): the
-- FTS tables use it as their rowid, and filters and sorting run on it instead of the wide listings
-- table. (A table without an INTEGER PRIMARY KEY may renumber its rowids on VACUUM, so listings' own
-- rowid is not used.) Text is indexed in a folded copy (ø→o, æ→ae, å→a) because unicode61
-- remove_diacritics does not fold ø or æ; queries are folded the same way (domain/search.ts). Two
-- indexes: unicode61 for word prefixes, trigram for substrings inside compound words.
CREATE TABLE `listing_search_map` (
	`rid` integer PRIMARY KEY,
	`listing_id` text NOT NULL,
	`is_public` integer NOT NULL,
	`category` text NOT NULL,
	`age_range` text NOT NULL,
	`condition_rating` integer NOT NULL,
	`price` integer NOT NULL,
	`is_free` integer NOT NULL,
	`is_trade_offer` integer NOT NULL,
	`postal_code` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_search_map_listing_unique` ON `listing_search_map` (`listing_id`);
--> statement-breakpoint
CREATE INDEX `listing_search_public_created_idx` ON `listing_search_map` (`is_public`, `created_at`);
--> statement-breakpoint
CREATE INDEX `listing_search_public_category_idx` ON `listing_search_map` (`is_public`, `category`, `created_at`);
--> statement-breakpoint
CREATE INDEX `listing_search_public_price_idx` ON `listing_search_map` (`is_public`, `price`);
--> statement-breakpoint
CREATE INDEX `listing_search_public_free_idx` ON `listing_search_map` (`is_public`, `is_free`, `created_at`);
--> statement-breakpoint
CREATE INDEX `listing_search_public_trade_idx` ON `listing_search_map` (`is_public`, `is_trade_offer`, `created_at`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts` USING fts5(title, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts_trigram` USING fts5(title, description, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN
	INSERT INTO listing_search_map(listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at) VALUES (new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au` AFTER UPDATE ON `listings` BEGIN
	UPDATE listing_search_map SET is_public = (new.status = 'active' AND new.is_hidden = 0), category = new.category, age_range = new.age_range,
		condition_rating = new.condition_rating, price = coalesce(new.price, 0), is_free = new.is_free, is_trade_offer = new.is_trade_offer,
		postal_code = new.postal_code, created_at = new.created_at
	WHERE listing_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ad` AFTER DELETE ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listing_search_map WHERE listing_id = old.id;
END;
