CREATE TABLE `request_errors` (
	`request_id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`name` text NOT NULL,
	`message` text NOT NULL,
	`stack` text,
	`user_hash` text
);
--> statement-breakpoint
CREATE INDEX `request_errors_at_idx` ON `request_errors` (`at`);--> statement-breakpoint
CREATE TABLE `drift_alerts` (
	`condition` text PRIMARY KEY NOT NULL,
	`alerted_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_refusals` (
	`provider` text NOT NULL,
	`code` text NOT NULL,
	`hour` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`last_at` text NOT NULL,
	PRIMARY KEY(`provider`, `code`, `hour`)
);
