CREATE TABLE `vipps_identities` (
	`sub` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_login_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vipps_identities_user_unique` ON `vipps_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `vipps_link_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`sub` text NOT NULL,
	`phone` text,
	`mail_code_hash` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vipps_link_requests_token_unique` ON `vipps_link_requests` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `vipps_link_requests_mail_code_unique` ON `vipps_link_requests` (`mail_code_hash`);--> statement-breakpoint
CREATE INDEX `vipps_link_requests_user_idx` ON `vipps_link_requests` (`user_id`);--> statement-breakpoint
CREATE INDEX `vipps_link_requests_expires_idx` ON `vipps_link_requests` (`expires_at`);--> statement-breakpoint
CREATE TABLE `vipps_login_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`browser_hash` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`return_path` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `vipps_login_states_expires_idx` ON `vipps_login_states` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `users` ADD `phone_verified_at` text;