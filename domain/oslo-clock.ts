// Europe/Oslo's wall clock without Intl: the first time-zone formatter a page makes costs 12–20 ms at
// 4× CPU (ICU loads the zone), inside the task that renders the page (docs/decisions/129-formatting-without-intl.md).

/** The years the rule below is Norway's law (EU summer time since 1996); others go to Intl. */
const FIRST_YEAR = 1996;
const LAST_YEAR = 2199;
const HOUR = 3_600_000;

/** 01:00 UTC on the last Sunday of a month: when EU summer time starts (March) and ends (October). */
function lastSundayAtOneUtc(year: number, monthIndex: number): number {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * 24 * HOUR;
}

export interface OsloTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partsFormat: { value?: Intl.DateTimeFormat } = {};

/** The date and time on Oslo's clock at instant `d`. */
export function osloTime(d: Date): OsloTime {
  const t = d.getTime();
  const year = d.getUTCFullYear();
  if (!(year >= FIRST_YEAR && year <= LAST_YEAR)) return osloTimeByIntl(d);
  const summer = t >= lastSundayAtOneUtc(year, 2) && t < lastSundayAtOneUtc(year, 9);
  const local = new Date(t + (summer ? 2 : 1) * HOUR);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
  };
}

function osloTimeByIntl(d: Date): OsloTime {
  partsFormat.value ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Oslo",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  });
  const parts = Object.fromEntries(partsFormat.value.formatToParts(d).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}
