-- "Send med posten" (docs/decisions/145-shipping-rules.md): the parcel of a sent order beside its
-- held money, and every verified tracking event once (its id unique per carrier), so a webhook
-- delivered twice, late or at the same moment moves the parcel at most once. Numbered 0029: the
-- listing's "Kan sendes" fields take 0028.
CREATE TABLE `shipment_events` (
	`carrier` text NOT NULL,
	`event_id` text NOT NULL,
	`shipment_number` text NOT NULL,
	`code` text NOT NULL,
	`occurred_at` text NOT NULL,
	`received_at` text NOT NULL,
	`applied` text,
	PRIMARY KEY(`carrier`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `shipment_events_number_idx` ON `shipment_events` (`carrier`,`shipment_number`);--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`carrier` text NOT NULL,
	`method` text NOT NULL,
	`parcel_size` text NOT NULL,
	`pickup_point_id` text,
	`pickup_point_name` text,
	`pickup_point_address` text,
	`shipping_price` integer NOT NULL,
	`state` text DEFAULT 'booking' NOT NULL,
	`idempotency_key` text NOT NULL,
	`shipment_number` text,
	`drop_off_code` text,
	`drop_off_deadline` text NOT NULL,
	`booking_attempts` integer DEFAULT 0 NOT NULL,
	`last_booking_error` text,
	`last_event_at` text,
	`carrier_cancelled_at` text,
	`delivered_notice_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "shipments_state_check" CHECK("state" IN ('booking', 'booked', 'booking_failed', 'dropped_off', 'in_transit', 'ready_for_pickup', 'delivered', 'lost', 'returned', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipments_order_unique` ON `shipments` (`order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `shipments_key_unique` ON `shipments` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `shipments_number_unique` ON `shipments` (`carrier`,`shipment_number`);--> statement-breakpoint
CREATE INDEX `shipments_deadline_idx` ON `shipments` (`state`,`drop_off_deadline`);--> statement-breakpoint
CREATE INDEX `shipments_silence_idx` ON `shipments` (`state`,`last_event_at`);