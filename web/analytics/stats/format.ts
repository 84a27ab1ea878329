const number = new Intl.NumberFormat("nb-NO");
const shortDay = new Intl.DateTimeFormat("nb-NO", { day: "numeric", month: "short", timeZone: "UTC" });
const longDay = new Intl.DateTimeFormat("nb-NO", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });

export const formatCount = (n: number) => number.format(n);

/** "20. nov." for a YYYY-MM-DD Oslo day (the day is a calendar date, so it is read as UTC). */
export const formatShortDay = (day: string) => shortDay.format(new Date(`${day}T00:00:00Z`));
export const formatLongDay = (day: string) => longDay.format(new Date(`${day}T00:00:00Z`));

/** Average view time: "42 s", "1 min 5 s", or "–" without views. */
export function formatViewTime(ms: number | null): string {
  if (ms === null) return "–";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}
