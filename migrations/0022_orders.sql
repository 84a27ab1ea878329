-- One word per concept (docs/architecture.md "Glossary"): a paid purchase is an order, a swap being
-- carried out is a trade, and every table names its listing `listing_id`. Renaming keeps every row,
-- and SQLite rewrites the foreign keys that point at a renamed table or column.
ALTER TABLE `transactions` RENAME TO `orders`;--> statement-breakpoint
ALTER TABLE `orders` RENAME COLUMN `ad_id` TO `listing_id`;--> statement-breakpoint
ALTER TABLE `orders` RENAME COLUMN `escrow_state` TO `state`;--> statement-breakpoint
ALTER TABLE `orders` RENAME COLUMN `escrow_refund_ref` TO `refund_ref`;--> statement-breakpoint
DROP INDEX `transactions_escrow_due_idx`;--> statement-breakpoint
DROP INDEX `transactions_money_pending_idx`;--> statement-breakpoint
DROP INDEX `transactions_payment_unique`;--> statement-breakpoint
DROP INDEX `transactions_stripe_session_unique`;--> statement-breakpoint
DROP INDEX `transactions_seller_idx`;--> statement-breakpoint
DROP INDEX `transactions_buyer_idx`;--> statement-breakpoint
CREATE INDEX `orders_due_idx` ON `orders` (`state`,`release_due_at`);--> statement-breakpoint
CREATE INDEX `orders_money_pending_idx` ON `orders` (`money_moved_at`,`settled_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_payment_unique` ON `orders` (`payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_stripe_session_unique` ON `orders` (`stripe_session_id`);--> statement-breakpoint
CREATE INDEX `orders_seller_idx` ON `orders` (`seller_id`,`paid_at`);--> statement-breakpoint
CREATE INDEX `orders_buyer_idx` ON `orders` (`buyer_id`,`paid_at`);--> statement-breakpoint
ALTER TABLE `problem_photos` RENAME COLUMN `transaction_id` TO `order_id`;--> statement-breakpoint
DROP INDEX `problem_photos_transaction_idx`;--> statement-breakpoint
CREATE INDEX `problem_photos_order_idx` ON `problem_photos` (`order_id`,`attached_at`);--> statement-breakpoint
ALTER TABLE `trade_transactions` RENAME TO `trades`;--> statement-breakpoint
DROP INDEX `trade_transactions_offer_unique`;--> statement-breakpoint
DROP INDEX `trade_transactions_user1_idx`;--> statement-breakpoint
DROP INDEX `trade_transactions_user2_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `trades_offer_unique` ON `trades` (`trade_offer_id`);--> statement-breakpoint
CREATE INDEX `trades_user1_idx` ON `trades` (`user1_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `trades_user2_idx` ON `trades` (`user2_id`,`created_at`);
