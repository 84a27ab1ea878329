CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_kind` text NOT NULL,
	`deal_id` text NOT NULL,
	`reviewer_id` text NOT NULL,
	`reviewee_id` text NOT NULL,
	`rating` integer NOT NULL,
	`text` text,
	`window_closes_at` text NOT NULL,
	`is_hidden` integer DEFAULT false NOT NULL,
	`hidden_reason` text,
	`hidden_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`reviewer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reviewee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_deal_reviewer_unique` ON `reviews` (`deal_kind`,`deal_id`,`reviewer_id`);--> statement-breakpoint
CREATE INDEX `reviews_reviewee_idx` ON `reviews` (`reviewee_id`,`created_at`);