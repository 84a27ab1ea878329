import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { LISTING_ANALYTICS_DEFAULT_DAYS } from "../../../domain/analytics";
import type { ListingAnalytics } from "../../../domain/schemas/analytics";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { formatCount, formatShortDay, formatViewTime } from "./format";
import { listingStatsQuery } from "../../api/analytics";
import { ViewsChart } from "./ViewsChart";

const PERIODS = [7, LISTING_ANALYTICS_DEFAULT_DAYS, 90] as const;

const FIGURES: { key: keyof ListingAnalytics["totals"]; label: string; format: (v: number | null) => string }[] = [
  { key: "views", label: "Visninger", format: (v) => formatCount(v ?? 0) },
  { key: "unique_sessions", label: "Unike besøk", format: (v) => formatCount(v ?? 0) },
  { key: "avg_view_ms", label: "Snittid på annonsen", format: formatViewTime },
  { key: "favourites", label: "Favoritter", format: (v) => formatCount(v ?? 0) },
  { key: "messages_started", label: "Samtaler startet", format: (v) => formatCount(v ?? 0) },
  { key: "trade_offers", label: "Bytteforslag", format: (v) => formatCount(v ?? 0) },
];

/**
 * A listing's statistics for its owner (and moderators): the period's figures, views per day as a
 * chart, and every day's figures in a table (docs/product.md "Server calls" get_listing_analytics).
 */
export function ListingStatsPanel({ listingId, heading = "h2" }: { listingId: string; heading?: "h2" | "h3" }) {
  const [days, setDays] = useState<number>(LISTING_ANALYTICS_DEFAULT_DAYS);
  const { data, isPending, error, refetch, isRefetching } = useQuery(listingStatsQuery(listingId, days));
  const headingId = useId();
  const periodId = useId();
  const chartTitleId = useId();
  const Heading = heading;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="text-lg font-bold text-stone-900">
          Statistikk
        </Heading>
        <div className="flex items-center gap-2">
          <label htmlFor={periodId} className="text-sm font-medium text-stone-800">
            Periode
          </label>
          <select
            id={periodId}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            className="min-h-11 rounded-xl border border-stone-500 bg-white px-3 text-base text-stone-900"
          >
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                Siste {p} dager
              </option>
            ))}
          </select>
        </div>
      </div>

      {isPending ? (
        <Spinner label="Laster statistikk..." className="py-6" />
      ) : error ? (
        <div className="mt-3 text-stone-700">
          <p>Kunne ikke hente statistikk</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void refetch()} disabled={isRefetching}>
            Prøv igjen
          </Button>
        </div>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="listing-stats-figures">
            {FIGURES.map((f) => (
              <div key={f.key} className="rounded-xl bg-stone-50 px-3 py-2">
                <dt className="text-sm text-stone-700">{f.label}</dt>
                <dd className="text-xl font-bold text-stone-900">{f.format(data.totals[f.key])}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-4">
            <ViewsChart days={data.days} titleId={chartTitleId} />
          </div>
          <details className="mt-3">
            <summary className="min-h-11 cursor-pointer py-2 font-medium text-brand-800">Vis tall per dag</summary>
            {/* Scrolls sideways on phones; focusable so keyboard users can scroll it too. */}
            <div className="overflow-x-auto" role="region" aria-label="Statistikk per dag" tabIndex={0}>
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Statistikk per dag</caption>
                <thead>
                  <tr className="border-b border-stone-300 text-stone-700">
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Dag
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Visninger
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Unike
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Snittid
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Favoritter
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Samtaler
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Bytteforslag
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...data.days].reverse().map((d) => (
                    <tr key={d.day} className="border-b border-stone-100">
                      <th scope="row" className="py-1 pr-3 font-normal whitespace-nowrap">
                        {formatShortDay(d.day)}
                      </th>
                      <td className="py-1 pr-3">{formatCount(d.views)}</td>
                      <td className="py-1 pr-3">{formatCount(d.unique_sessions)}</td>
                      <td className="py-1 pr-3 whitespace-nowrap">{formatViewTime(d.avg_view_ms)}</td>
                      <td className="py-1 pr-3">{formatCount(d.favourites)}</td>
                      <td className="py-1 pr-3">{formatCount(d.messages_started)}</td>
                      <td className="py-1">{formatCount(d.trade_offers)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
          <p className="mt-2 text-xs text-stone-700">Visninger telles bare fra besøkende som har godtatt analyse, og aldri dine egne.</p>
        </>
      )}
    </section>
  );
}
