// Day groups and times in the chat (docs/product.md "Messages and chat"): "I dag", "I går" or a Norwegian date, each
// message with its time, all in Europe/Oslo whatever the device's time zone (docs/style.md "Texts and formats").
import { formatDate, formatTime, osloDay } from "./format";

/** "14:05" in Oslo. */
export function messageTime(value: string | Date): string {
  return formatTime(value);
}

/** The Oslo calendar day before `day` (YYYY-MM-DD), without time-zone arithmetic. */
function previousDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** "I dag", "I går", or e.g. "3. mars 2026", by Oslo calendar days. */
export function chatDayLabel(value: string | Date, now: Date = new Date()): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const day = osloDay(date);
  const today = osloDay(now);
  if (day === today) return "I dag";
  if (day === previousDay(today)) return "I går";
  return formatDate(date);
}

export interface DayGroup<T> {
  /** YYYY-MM-DD in Oslo. */
  day: string;
  label: string;
  items: T[];
}

/** Consecutive items grouped by their Oslo day, in the order given. */
export function groupByOsloDay<T>(items: readonly T[], createdAt: (item: T) => string, now: Date = new Date()): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const at = createdAt(item);
    const day = osloDay(new Date(at));
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, label: chatDayLabel(at, now), items: [item] });
  }
  return groups;
}
