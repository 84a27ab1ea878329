import { Suspense } from "react";
import { Spinner } from "../../components/ui/Spinner";
import { lazyCode } from "../../lib/missingCode";

// The statistics and their chart load only for the few who may see them (owner, moderators).
const ListingStatsPanel = lazyCode(() => import("./ListingStatsPanel").then((m) => ({ default: m.ListingStatsPanel })));

export function LazyListingStats({ listingId, heading }: { listingId: string; heading?: "h2" | "h3" }) {
  return (
    <Suspense fallback={<Spinner label="Laster statistikk..." className="py-6" />}>
      <ListingStatsPanel listingId={listingId} heading={heading} />
    </Suspense>
  );
}
