-- Hand-written: FTS5 over listings (drizzle has no virtual tables). See docs/decisions/004-search-index.md.
-- Text is indexed in a folded copy (ø→o, æ→ae, å→a) because unicode61 remove_diacritics does not fold
-- ø or æ; queries are folded the same way (domain/search.ts). Two indexes: unicode61 for words and
-- prefixes (ranked with bm25, title weighted), trigram for substrings inside compound words.
-- listing_search_map gives each listing a stable integer rowid (a rowid table without an INTEGER
-- PRIMARY KEY may renumber on VACUUM, so listings' own rowid is not used).
CREATE TABLE `listing_search_map` (
	`rowid` integer PRIMARY KEY,
	`listing_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_search_map_listing_unique` ON `listing_search_map` (`listing_id`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts` USING fts5(title, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts_trigram` USING fts5(title, description, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN
	INSERT INTO listing_search_map(listing_id) VALUES (new.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rowid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rowid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au` AFTER UPDATE OF title, description ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rowid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rowid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rowid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rowid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ad` AFTER DELETE ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rowid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rowid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listing_search_map WHERE listing_id = old.id;
END;
