ALTER TABLE `transactions` ADD `escrow_state` text DEFAULT 'released' NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `payout_account` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `handed_over_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `release_due_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `reminder_sent_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `problem_reason` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `problem_text` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `problem_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `settled_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `decided_by` text REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `transactions` ADD `refund_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `transfer_ref` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `escrow_refund_ref` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `money_moved_at` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `payout_error` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `payout_error_notified_at` text;--> statement-breakpoint
CREATE INDEX `transactions_escrow_due_idx` ON `transactions` (`escrow_state`,`release_due_at`);--> statement-breakpoint
CREATE INDEX `transactions_money_pending_idx` ON `transactions` (`money_moved_at`,`settled_at`);--> statement-breakpoint
-- Sales made before held payments were destination charges (card) or captured at once (Vipps): their
-- money moved when they were paid, so they are released, settled and moved at their payment time.
UPDATE `transactions` SET `settled_at` = `paid_at`, `money_moved_at` = `paid_at` WHERE `settled_at` IS NULL;
