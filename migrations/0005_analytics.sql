CREATE TABLE `analytics_listing_views` (
	`view_id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`day` text NOT NULL,
	`session_id` text NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`scroll_depth` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_listing_views_listing_day_idx` ON `analytics_listing_views` (`listing_id`,`day`);--> statement-breakpoint
CREATE INDEX `analytics_listing_views_day_idx` ON `analytics_listing_views` (`day`);--> statement-breakpoint
CREATE TABLE `analytics_processed_messages` (
	`message_id` text PRIMARY KEY NOT NULL,
	`processed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_processed_messages_at_idx` ON `analytics_processed_messages` (`processed_at`);