ALTER TABLE `moderation_actions` ADD `target_user_id` text;--> statement-breakpoint
CREATE INDEX `moderation_actions_target_user_idx` ON `moderation_actions` (`target_user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `user_moderation_status` ADD `suspension_reason` text;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_unique` ON `reports` (`reporter_id`,`target_type`,`target_id`) WHERE status IN ('pending', 'reviewed');