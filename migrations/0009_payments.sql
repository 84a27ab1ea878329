ALTER TABLE `payments` ADD `platform_fee` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_payment_ref` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `captured_at` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `refund_ref` text;--> statement-breakpoint
ALTER TABLE `profiles` ADD `stripe_charges_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `profiles` ADD `stripe_payouts_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `profiles` ADD `stripe_details_submitted` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `platform_fee` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `seller_payout` text DEFAULT 'stripe' NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `conversation_id` text REFERENCES conversations(id);--> statement-breakpoint
ALTER TABLE `transactions` ADD `seller_notified_at` text;--> statement-breakpoint
CREATE INDEX `transactions_buyer_idx` ON `transactions` (`buyer_id`,`paid_at`);