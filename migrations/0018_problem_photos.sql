CREATE TABLE `problem_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`transaction_id` text NOT NULL,
	`uploader_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`attached_at` text,
	`position` integer,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`uploader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `problem_photos_transaction_idx` ON `problem_photos` (`transaction_id`,`attached_at`);--> statement-breakpoint
CREATE INDEX `problem_photos_orphan_idx` ON `problem_photos` (`attached_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `problem_photos_uploader_idx` ON `problem_photos` (`uploader_id`);