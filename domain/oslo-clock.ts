// Europe/Oslo's wall clock without Intl: the first time-zone formatter a page makes costs 12–20 ms at
// 4× CPU (ICU loads the zone), inside the task that renders the page (docs/decisions/129-formatting-without-intl.md).

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

/**
 * The date and time on Oslo's clock at instant `d`: Norway's rule since 1996 (EU summer time). Earlier
 * instants are not shown anywhere (every date here is a listing's, a message's or a payment's).
 */
export function osloTime(d: Date): OsloTime {
  const t = d.getTime();
  if (Number.isNaN(t)) throw new RangeError("Invalid time value");
  const year = d.getUTCFullYear();
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
