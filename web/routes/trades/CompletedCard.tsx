import { ArrowLeftRight, Star } from "lucide-react";
import { useState } from "react";
import { Link } from "../../components/Link";
import { formatDate } from "../../../domain/format";
import { isReviewWindowOpen } from "../../../domain/reviews";
import type { CompletedTradesBody } from "../../api/trades";
import { LazyReviewDialog } from "../../components/lazyDialogs";
import { Button } from "../../components/ui/Button";
import { TradeListingRow } from "./TradeParts";

/** One completed trade in /trade-history's "Fullført" tab, with "Gi vurdering" while the window is open. */
export default function CompletedCard({ trade }: { trade: CompletedTradesBody["items"][number] }) {
  const [reviewing, setReviewing] = useState(false);
  const name = trade.other_user.display_name;
  const open = isReviewWindowOpen(trade.completed_at, new Date().toISOString());
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="font-semibold text-stone-900">Bytte med {trade.other_user.display_name}</p>
        <p className="text-sm text-stone-700">Fullført {formatDate(trade.completed_at)}</p>
      </div>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TradeListingRow traded label="Din leke" listing={trade.my_listing} />
        <TradeListingRow traded label="Deres leke" listing={trade.their_listing} />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {!trade.reviewed_by_me && open && !trade.other_user.deleted ? (
          <Button size="sm" onClick={() => setReviewing(true)}>
            <Star aria-hidden="true" className="size-4" />
            Gi vurdering
          </Button>
        ) : trade.reviewed_by_me ? (
          <p className="text-sm text-stone-700">Du har gitt {name} en vurdering.</p>
        ) : null}
        <Link
          to={`/chat/${trade.conversation_id}`}
          className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-800 hover:underline"
        >
          <ArrowLeftRight aria-hidden="true" className="size-4" />
          {trade.reviewed_by_me ? "Se vurderingene i samtalen" : "Gå til samtalen"}
        </Link>
      </div>
      <LazyReviewDialog target={reviewing ? { kind: "trade", id: trade.id, otherName: name } : null} onClose={() => setReviewing(false)} />
    </li>
  );
}
