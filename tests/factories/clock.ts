// Timestamps for rows built in tests. Listing order (newest first) depends on created_at, and rows
// built in one test often share the same millisecond (workerd only advances Date.now() on I/O), so
// every default timestamp is strictly later than the previous one.
let last = 0;

export function nextTimestamp(): string {
  last = Math.max(Date.now(), last + 1);
  return new Date(last).toISOString();
}

/** An ISO timestamp `ms` milliseconds before now (for "posted 3 days ago" style data). */
export function ago(ms: number, now: Date = new Date()): string {
  return new Date(now.getTime() - ms).toISOString();
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
