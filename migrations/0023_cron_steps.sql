CREATE TABLE `cron_steps` (
	`step` text PRIMARY KEY NOT NULL,
	`last_run_at` text NOT NULL,
	`last_ok` integer NOT NULL,
	`last_error` text,
	`last_ms` integer NOT NULL,
	`failures_in_a_row` integer DEFAULT 0 NOT NULL,
	`alerted_at` text
);
