-- The search's filters by search rowid (docs/decisions/158-search-filters-index.md): a text search
-- checks the filters of each text match by its rid, and this index holds them without the row's
-- listing id and dates, about 2.4 times as many to a page as the table, so those checks read
-- fewer pages. Every column a search filters on (worker/features/search/plan.ts) is here; a test
-- fails when one is not.
CREATE INDEX `listing_search_filters_idx` ON `listing_search_map` (`rid`, `is_public`, `postal_code`, `category`, `condition_rating`, `age_range`, `is_free`, `is_trade_offer`, `price`, `brand`);
