// Norwegian formatting shared by web and worker (docs/style.md "Texts and formats").
export const TIME_ZONE = "Europe/Oslo";

const priceFormat = new Intl.NumberFormat("nb-NO", { maximumFractionDigits: 0 });

/** Whole kroner: "1 250 kr", or "Gratis" for free listings. */
export function formatPrice(price: number | null | undefined, isFree: boolean): string {
  if (isFree || price == null) return "Gratis";
  // Intl uses a narrow no-break space as group separator; keep it (it renders as a space).
  return `${priceFormat.format(price)} kr`;
}

/** Minor units (øre) from a payment provider: divide by 100, 2 decimals. */
export function formatMinorUnits(amount: number): string {
  return `${new Intl.NumberFormat("nb-NO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount / 100)} kr`;
}

const dateFormat = new Intl.DateTimeFormat("nb-NO", { day: "numeric", month: "long", year: "numeric", timeZone: TIME_ZONE });

export function formatDate(value: string | Date): string {
  return dateFormat.format(typeof value === "string" ? new Date(value) : value);
}

/** Calendar day in Oslo as YYYY-MM-DD. */
export function osloDay(d: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

/**
 * Relative posting time (docs/product.md "Limits and timings"): under 1 hour "Akkurat nå"; under 24 hours "{n}t siden";
 * 1 day "I går"; under 7 days "{n}d siden"; otherwise a Norwegian date.
 */
export function relativeTime(value: string | Date, now: Date = new Date()): string {
  const then = typeof value === "string" ? new Date(value) : value;
  const ms = now.getTime() - then.getTime();
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return "Akkurat nå";
  if (hours < 24) return `${hours}t siden`;
  const days = Math.floor(hours / 24);
  if (days === 1) return "I går";
  if (days < 7) return `${days}d siden`;
  return formatDate(then);
}

/**
 * The year on Oslo's clock. Around New Year Oslo is always on winter time (UTC+1), so the year is the
 * UTC year an hour later: no time-zone formatter, which costs more to make than the footer's whole
 * edge render of it.
 */
export function currentYear(now: Date = new Date()): number {
  return new Date(now.getTime() + 3_600_000).getUTCFullYear();
}

/** The hour (0–23) on Oslo's clock. */
export function osloHour(d: Date): number {
  return Number(new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, hour: "2-digit", hourCycle: "h23" }).format(d));
}

const dateTimeFormat = new Intl.DateTimeFormat("nb-NO", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TIME_ZONE,
});

/** "12. november 2026 kl. 14:05" in Oslo time (payment times). */
export function formatDateTime(value: string | Date): string {
  return dateTimeFormat.format(typeof value === "string" ? new Date(value) : value);
}

/** A count with its noun in Norwegian singular or plural: "1 advarsel", "2 advarsler", "1 250 annonser". */
export function countText(n: number, singular: string, plural: string): string {
  return n === 1 ? `1 ${singular}` : `${new Intl.NumberFormat("nb-NO").format(n)} ${plural}`;
}

/**
 * A name in the genitive, as Bokmål writes it: the name and an s ("Ola Hansens vurdering"); a name
 * that ends in s, x or z takes an apostrophe instead ("Hans' vurdering", "Marx'", "Inez'").
 */
export function genitive(name: string): string {
  const trimmed = name.trim();
  return /[sxz]$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}s`;
}
