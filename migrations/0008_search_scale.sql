-- Hand-written (issue 15, search at scale): a title-only trigram index for the relevance tiers. See
-- docs/decisions/004-search-index.md and 044-search-at-scale.md.
-- The tiers "every term starts a word of the title" (2) and "every term occurs in the title" (1) ran
-- on the two-column indexes of 0001 with an FTS5 column filter, which still reads every row where the
-- terms occur in the description (78 ms for "fra røykfritt hjem" at 1,000,000 listings), and the
-- word-prefix tier merged the whole doclist of every word starting with a term before returning a
-- row. listings_title_trigram holds the folded title (ø→o, æ→ae, å→a, as 0001) with its separators
-- turned into spaces and one space at each end, so word boundaries are substrings: " ski" starts a
-- word ("Skihjelm"), "ski " ends one ("Barneski", the head of a Norwegian compound, or the whole word),
-- "ski" is anywhere in the title. All of them stream newest first and stop at the page.
-- Separators: - – — , . : ; ( ) [ ] / \ " ' « » “ ” ‘ ’ ! ? + & * # _ | • … (a title with another
-- symbol next to a word ranks that word one tier lower).
-- The triggers of 0001 that write the search tables are replaced by ones that also write this table
-- (one trigger per event, so the map row exists before the FTS rows that use its rid).
CREATE VIRTUAL TABLE `listings_title_trigram` USING fts5(title, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
INSERT INTO listings_title_trigram(rowid, title) SELECT s.rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(l.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map s JOIN listings l ON l.id = s.listing_id;
--> statement-breakpoint
DROP TRIGGER `listings_search_ai`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN
	INSERT INTO listing_search_map(listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at) VALUES (new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_au_text`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	INSERT INTO listings_fts(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_fts_trigram(rowid, title, description) SELECT rid, replace(replace(replace(replace(replace(replace(new.title,'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A'), replace(replace(replace(replace(replace(replace(coalesce(new.description,''),'ø','o'),'Ø','O'),'æ','ae'),'Æ','AE'),'å','a'),'Å','A') FROM listing_search_map WHERE listing_id = new.id;
	INSERT INTO listings_title_trigram(rowid, title) SELECT rid, ' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.title, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A'), '-', ' '), '–', ' '), '—', ' '), ',', ' '), '.', ' '), ':', ' '), ';', ' '), '(', ' '), ')', ' '), '[', ' '), ']', ' '), '/', ' '), '\', ' '), '"', ' '), '''', ' '), '«', ' '), '»', ' '), '“', ' '), '”', ' '), '‘', ' '), '’', ' '), '!', ' '), '?', ' '), '+', ' '), '&', ' '), '*', ' '), '#', ' '), '_', ' '), '|', ' '), '•', ' '), '…', ' ') || ' ' FROM listing_search_map WHERE listing_id = new.id;
END;
--> statement-breakpoint
DROP TRIGGER `listings_search_ad`;
--> statement-breakpoint
CREATE TRIGGER `listings_search_ad` AFTER DELETE ON `listings` BEGIN
	DELETE FROM listings_fts WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_fts_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listings_title_trigram WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);
	DELETE FROM listing_search_map WHERE listing_id = old.id;
END;
