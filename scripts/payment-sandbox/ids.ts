import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random id in Stripe's style: a prefix and base62 characters (`cs_test_…`, `acct_…`). */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export function token(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** Run `fn` every second without keeping the process alive; returns the function that stops it. */
export function everySecond(fn: () => void): () => void {
  const timer = setInterval(fn, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
