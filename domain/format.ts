// Norwegian formatting shared by web and worker (docs/style.md "Texts and formats").
import { osloTime } from "./oslo-clock";

const NO_BREAK_SPACE = "\u00a0";
const MINUS = "\u2212";
const MONTHS = ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "desember"];

/** The number's shortest decimal form written out without an exponent: 1e21 → "1000000000000000000000". */
function plainDecimal(abs: number): string {
  const [mantissa, exponent = "0"] = String(abs).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + "0".repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A number as nb-NO writes it, the same text as `Intl.NumberFormat("nb-NO")` with these fraction
 * digits ("1 250", "4,5", "−3"), without Intl: the first nb-NO formatter a page makes costs about
 * 75 ms at 4× CPU (ICU loads the locale), inside the task that renders the page (docs/decisions/129-formatting-without-intl.md).
 * Rounds half away from zero on the shortest decimal form of the number, as Intl does.
 */
export function formatNumber(n: number, minFractionDigits = 0, maxFractionDigits = Math.max(minFractionDigits, 3)): string {
  const sign = n < 0 || Object.is(n, -0) ? MINUS : "";
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return `${sign}∞`;
  const [whole, fraction = ""] = plainDecimal(Math.abs(n)).split(".");
  let digits = whole + fraction.slice(0, maxFractionDigits).padEnd(maxFractionDigits, "0");
  if (fraction.length > maxFractionDigits && fraction[maxFractionDigits] >= "5")
    digits = (BigInt(digits) + 1n).toString().padStart(digits.length, "0");
  const wholeDigits = digits.slice(0, digits.length - maxFractionDigits) || "0";
  let fractionDigits = digits.slice(digits.length - maxFractionDigits);
  while (fractionDigits.length > minFractionDigits && fractionDigits.endsWith("0")) fractionDigits = fractionDigits.slice(0, -1);
  const grouped = wholeDigits.replace(/\B(?=(\d{3})+$)/g, NO_BREAK_SPACE);
  return `${sign}${grouped}${fractionDigits ? `,${fractionDigits}` : ""}`;
}

/** Whole kroner: "1 250 kr", or "Gratis" for free listings. */
export function formatPrice(price: number | null | undefined, isFree: boolean): string {
  if (isFree || price == null) return "Gratis";
  // Intl uses a narrow no-break space as group separator; keep it (it renders as a space).
  return `${formatNumber(price, 0, 0)} kr`;
}

/** Minor units (øre) from a payment provider: divide by 100, 2 decimals. */
export function formatMinorUnits(amount: number): string {
  return `${formatNumber(amount / 100, 2, 2)} kr`;
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** "12. november 2026" in Oslo. */
export function formatDate(value: string | Date): string {
  const { year, month, day } = osloTime(typeof value === "string" ? new Date(value) : value);
  return `${day}. ${MONTHS[month - 1]} ${year}`;
}

/** "14:05" in Oslo. */
export function formatTime(value: string | Date): string {
  const { hour, minute } = osloTime(typeof value === "string" ? new Date(value) : value);
  return `${twoDigits(hour)}:${twoDigits(minute)}`;
}

/** Calendar day in Oslo as YYYY-MM-DD. */
export function osloDay(d: Date): string {
  const { year, month, day } = osloTime(d);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
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
  return osloTime(d).hour;
}

/** "12. november 2026 kl. 14:05" in Oslo time (payment times). */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return `${formatDate(date)} kl. ${formatTime(date)}`;
}

/** A count with its noun in Norwegian singular or plural: "1 advarsel", "2 advarsler", "1 250 annonser". */
export function countText(n: number, singular: string, plural: string): string {
  return n === 1 ? `1 ${singular}` : `${formatNumber(n)} ${plural}`;
}

/**
 * A name in the genitive, as Bokmål writes it: the name and an s ("Ola Hansens vurdering"); a name
 * that ends in s, x or z takes an apostrophe instead ("Hans' vurdering", "Marx'", "Inez'").
 */
export function genitive(name: string): string {
  const trimmed = name.trim();
  return /[sxz]$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}s`;
}
