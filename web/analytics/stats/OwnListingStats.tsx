import { useQuery } from "@tanstack/react-query";
import { ChartColumn } from "lucide-react";
import { useId, useState } from "react";
import { LISTING_ANALYTICS_DEFAULT_DAYS } from "../../../domain/analytics";
import { buttonClasses } from "../../components/ui/Button";
import { formatCount } from "./format";
import { LazyListingStats } from "./LazyListingStats";
import { ownListingsStatsQuery } from "../../api/analytics";

/**
 * A row of "Mine annonser": views in the last 30 days, and a button that opens the listing's
 * statistics with its chart. Every row shares one request for the figures.
 */
export function OwnListingStats({ listingId, title }: { listingId: string; title: string }) {
  const { data } = useQuery(ownListingsStatsQuery());
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const row = data?.find((r) => r.listing_id === listingId);
  const views = data ? (row?.views ?? 0) : null;

  return (
    <div className="mt-3">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={`Statistikk ${title}`}
          onClick={() => setOpen((o) => !o)}
          className={buttonClasses("secondary", "sm")}
        >
          <ChartColumn aria-hidden="true" className="size-4" />
          Statistikk
        </button>
        {views !== null ? (
          <p className="text-sm text-stone-700">
            {views === 1 ? "1 visning" : `${formatCount(views)} visninger`} siste {LISTING_ANALYTICS_DEFAULT_DAYS} dager
          </p>
        ) : null}
      </div>
      <div id={panelId} className="mt-3" hidden={!open}>
        {open ? <LazyListingStats listingId={listingId} heading="h3" /> : null}
      </div>
    </div>
  );
}
