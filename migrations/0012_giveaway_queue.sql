CREATE TABLE `giveaway_queue` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`giver_id` text NOT NULL,
	`user_id` text NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`reserved_at` text,
	`conversation_id` text,
	`change_id` text,
	`unseen` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`giver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `giveaway_queue_listing_user_unique` ON `giveaway_queue` (`listing_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `giveaway_queue_one_reserved_unique` ON `giveaway_queue` (`listing_id`) WHERE status = 'reserved';--> statement-breakpoint
CREATE INDEX `giveaway_queue_listing_order_idx` ON `giveaway_queue` (`listing_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `giveaway_queue_user_idx` ON `giveaway_queue` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `giveaways` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`giver_id` text NOT NULL,
	`taker_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`conversation_id` text,
	`given_at` text NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`giver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`taker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entry_id`) REFERENCES `giveaway_queue`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `giveaways_listing_unique` ON `giveaways` (`listing_id`);--> statement-breakpoint
CREATE INDEX `giveaways_giver_idx` ON `giveaways` (`giver_id`,`given_at`);--> statement-breakpoint
CREATE INDEX `giveaways_taker_idx` ON `giveaways` (`taker_id`,`given_at`);