import type { ListingStatsDay } from "../../../domain/schemas/analytics";
import { formatCount, formatLongDay, formatShortDay } from "./format";

const WIDTH = 600;
const HEIGHT = 120;

/**
 * Views per day as SVG bars (stretched to the width; the labels are HTML so they keep their size).
 * The picture has a text alternative that says what it shows (total and busiest day); the exact
 * figures per day are in the table beside it.
 */
export function ViewsChart({ days, titleId }: { days: ListingStatsDay[]; titleId: string }) {
  const max = Math.max(1, ...days.map((d) => d.views));
  const total = days.reduce((sum, d) => sum + d.views, 0);
  const busiest = days.reduce((best, d) => (d.views > best.views ? d : best), days[0]);
  const first = days[0].day;
  const last = days[days.length - 1].day;
  const slot = WIDTH / days.length;
  const barWidth = Math.max(2, slot * 0.7);
  const description =
    total === 0
      ? `Visninger per dag fra ${formatLongDay(first)} til ${formatLongDay(last)}: ingen visninger ennå.`
      : `Visninger per dag fra ${formatLongDay(first)} til ${formatLongDay(last)}: ${formatCount(total)} i alt, flest ${formatLongDay(busiest.day)} med ${formatCount(busiest.views)}.`;

  return (
    <div>
      <div className="flex justify-end text-xs text-stone-700" aria-hidden="true">
        maks {formatCount(max)} per dag
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={titleId}
        className="mt-1 block h-28 w-full"
      >
        <title id={titleId}>{description}</title>
        {days.map((d, i) => {
          const h = d.views > 0 ? Math.max(3, (d.views / max) * HEIGHT) : 0;
          return (
            <rect key={d.day} x={i * slot + (slot - barWidth) / 2} y={HEIGHT - h} width={barWidth} height={h} className="fill-brand-600" />
          );
        })}
      </svg>
      <div className="flex justify-between border-t border-stone-300 pt-1 text-xs text-stone-700" aria-hidden="true">
        <span>{formatShortDay(first)}</span>
        <span>{formatShortDay(last)}</span>
      </div>
    </div>
  );
}
