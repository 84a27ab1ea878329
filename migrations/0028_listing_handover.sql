-- How a toy changes hands (docs/decisions/148-listing-handover.md): every listing so far is picked
-- up, none is sent. drizzle-kit writes a CHECK as a rebuild of the whole table; listings has the
-- search triggers and the rows of many tables pointing at it, so the columns are added in place and
-- carry the schema's two checks (SQLite tests them against the existing rows, which all pass).
ALTER TABLE `listings` ADD `can_pick_up` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `listings` ADD `can_ship` integer DEFAULT false NOT NULL CONSTRAINT "listings_handover_check" CHECK("can_pick_up" = 1 OR "can_ship" = 1);--> statement-breakpoint
ALTER TABLE `listings` ADD `parcel_size` text CONSTRAINT "listings_parcel_size_check" CHECK(("can_ship" = 0 AND "parcel_size" IS NULL) OR ("can_ship" = 1 AND "parcel_size" IS NOT NULL AND "parcel_size" IN ('small', 'medium', 'large')));
