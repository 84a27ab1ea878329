CREATE TABLE `saved_search_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`rid` integer NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `saved_search_digests` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`claim` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_search_digests_day_idx` ON `saved_search_digests` (`day`,`claim`);--> statement-breakpoint
CREATE TABLE `saved_search_keys` (
	`key` text NOT NULL,
	`saved_search_id` text NOT NULL,
	PRIMARY KEY(`key`, `saved_search_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_search_keys_search_idx` ON `saved_search_keys` (`saved_search_id`);--> statement-breakpoint
CREATE TABLE `saved_search_matches` (
	`saved_search_id` text NOT NULL,
	`listing_id` text NOT NULL,
	`listing_rid` integer NOT NULL,
	`user_id` text NOT NULL,
	`alert_state` text NOT NULL,
	`matched_at` text NOT NULL,
	`alerted_at` text,
	PRIMARY KEY(`saved_search_id`, `listing_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_search_matches_search_rid_idx` ON `saved_search_matches` (`saved_search_id`,`listing_rid`);--> statement-breakpoint
CREATE INDEX `saved_search_matches_state_listing_idx` ON `saved_search_matches` (`alert_state`,`listing_id`);--> statement-breakpoint
CREATE INDEX `saved_search_matches_user_state_idx` ON `saved_search_matches` (`user_id`,`alert_state`);--> statement-breakpoint
CREATE INDEX `saved_search_matches_matched_idx` ON `saved_search_matches` (`matched_at`);--> statement-breakpoint
CREATE TABLE `saved_searches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`query` text NOT NULL,
	`filters_key` text NOT NULL,
	`alert` text DEFAULT 'immediate' NOT NULL,
	`since_rid` integer DEFAULT 0 NOT NULL,
	`seen_rid` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_searches_user_filters_unique` ON `saved_searches` (`user_id`,`filters_key`);--> statement-breakpoint
CREATE INDEX `saved_searches_user_idx` ON `saved_searches` (`user_id`,`created_at`);