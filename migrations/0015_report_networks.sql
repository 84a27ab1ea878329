DROP INDEX `reports_open_unique`;--> statement-breakpoint
ALTER TABLE `reports` ADD `reporter_network` text;