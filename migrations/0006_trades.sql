ALTER TABLE `trade_offers` ADD `change_id` text;--> statement-breakpoint
ALTER TABLE `trade_transactions` ADD `user1_confirmed_at` text;--> statement-breakpoint
ALTER TABLE `trade_transactions` ADD `user2_confirmed_at` text;