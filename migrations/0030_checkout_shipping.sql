-- Checkout with "Sending" (docs/decisions/150-checkout-with-shipping.md): the buyer's carrier,
-- delivery, pickup point and address written with the pending payment (whose amount is the toy plus
-- the shipping), copied to the shipment when the payment is settled; the seller's street address
-- for the parcel's sender.
CREATE TABLE `payment_shipping` (
	`payment_id` text PRIMARY KEY NOT NULL,
	`carrier` text NOT NULL,
	`method` text NOT NULL,
	`parcel_size` text NOT NULL,
	`shipping_price` integer NOT NULL,
	`pickup_point_id` text,
	`pickup_point_name` text,
	`pickup_point_address` text,
	`recipient_name` text NOT NULL,
	`recipient_address_line` text NOT NULL,
	`recipient_postal_code` text NOT NULL,
	`recipient_city` text NOT NULL,
	`recipient_phone` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `profiles` ADD `street_address` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `recipient_name` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `recipient_address_line` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `recipient_postal_code` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `recipient_city` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `recipient_phone` text;