ALTER TABLE `sessions` ADD `family_expires_at` text;--> statement-breakpoint
-- Sessions signed in before this migration get the absolute lifetime counted from their own start.
UPDATE `sessions` SET `family_expires_at` = strftime('%Y-%m-%dT%H:%M:%fZ', `created_at`, '+90 days') WHERE `family_expires_at` IS NULL;
