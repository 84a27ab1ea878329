ALTER TABLE `transactions` ADD `buyer_receipt_sent_at` text;--> statement-breakpoint
-- Orders paid before receipts existed are not mailed one now, when their details page or a late webhook settles them again.
UPDATE `transactions` SET `buyer_receipt_sent_at` = `paid_at`;
