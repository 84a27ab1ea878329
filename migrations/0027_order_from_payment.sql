-- An order's listing, parties, amount, currency, fee and Stripe session are its payment's
-- (docs/decisions/141-an-order-is-its-payment-s.md): every order was written from its payment, so the
-- copies go and the order keeps only what happens to the money. SQLite drops a column that is a
-- foreign key only by rebuilding the table, and D1 enforces foreign keys (foreign_keys=OFF does
-- nothing there). Dropping a table that child rows refer to counts a violation even when deferred
-- and the table comes back, so problem_photos' rows (the one table that refers to orders) wait in a
-- copy while orders is rebuilt, and go back once it is.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__problem_photos_kept` AS SELECT * FROM `problem_photos`;--> statement-breakpoint
DELETE FROM `problem_photos`;--> statement-breakpoint
CREATE TABLE `__new_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`paid_at` text NOT NULL,
	`seller_payout` text DEFAULT 'stripe' NOT NULL,
	`conversation_id` text,
	`seller_notified_at` text,
	`buyer_receipt_sent_at` text,
	`state` text DEFAULT 'released' NOT NULL,
	`payout_account` text,
	`handed_over_at` text,
	`release_due_at` text,
	`reminder_sent_at` text,
	`problem_reason` text,
	`problem_text` text,
	`problem_at` text,
	`settled_at` text,
	`decided_by` text,
	`refund_amount` integer DEFAULT 0 NOT NULL,
	`transfer_ref` text,
	`refund_ref` text,
	`money_moved_at` text,
	`payout_error` text,
	`payout_error_notified_at` text,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_orders`("id", "payment_id", "paid_at", "seller_payout", "conversation_id", "seller_notified_at", "buyer_receipt_sent_at", "state", "payout_account", "handed_over_at", "release_due_at", "reminder_sent_at", "problem_reason", "problem_text", "problem_at", "settled_at", "decided_by", "refund_amount", "transfer_ref", "refund_ref", "money_moved_at", "payout_error", "payout_error_notified_at") SELECT "id", "payment_id", "paid_at", "seller_payout", "conversation_id", "seller_notified_at", "buyer_receipt_sent_at", "state", "payout_account", "handed_over_at", "release_due_at", "reminder_sent_at", "problem_reason", "problem_text", "problem_at", "settled_at", "decided_by", "refund_amount", "transfer_ref", "refund_ref", "money_moved_at", "payout_error", "payout_error_notified_at" FROM `orders`;--> statement-breakpoint
DROP TABLE `orders`;--> statement-breakpoint
ALTER TABLE `__new_orders` RENAME TO `orders`;--> statement-breakpoint
CREATE INDEX `orders_due_idx` ON `orders` (`state`,`release_due_at`);--> statement-breakpoint
CREATE INDEX `orders_money_pending_idx` ON `orders` (`money_moved_at`,`settled_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_payment_unique` ON `orders` (`payment_id`);--> statement-breakpoint
INSERT INTO `problem_photos` SELECT * FROM `__problem_photos_kept`;--> statement-breakpoint
DROP TABLE `__problem_photos_kept`;
