-- Hand-written: the system user (nil UUID) that sends notifications such as the notification test's
-- message (docs/product.md "Notification test"). Its password hash "!" matches no password, so it can never sign in.
INSERT OR IGNORE INTO users (id, email, password_hash, email_confirmed_at)
VALUES ('00000000-0000-0000-0000-000000000000', 'system@lekebytte.invalid', '!', '2026-01-01T00:00:00.000Z');
--> statement-breakpoint
INSERT OR IGNORE INTO profiles (user_id, display_name, role) VALUES ('00000000-0000-0000-0000-000000000000', 'Lekebytte', 'user');
