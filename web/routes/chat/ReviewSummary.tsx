import { useId, useState } from "react";
import { genitive } from "../../../domain/format";
import type { DealReviewStateBody } from "../../api/reviews";
import { DealReviewPanel } from "../../components/reviews/DealReviewPanel";
import { Stars } from "../../components/reviews/Stars";
import { Star } from "lucide-react";
import { StripLine } from "./StripLine";

/** A completed deal's reviews in the chat, once answered or too late: one line that opens the whole panel. */
export function ReviewSummary({ state }: { state: DealReviewStateBody }) {
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const name = state.other_user.display_name;
  const { my_review: mine, their_review: theirs } = state;
  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50">
      <StripLine
        expanded={expanded}
        onToggle={() => setExpanded(!expanded)}
        controls={bodyId}
        className="text-stone-900 hover:bg-amber-100"
        chevronClassName="text-stone-700"
      >
        <Star aria-hidden="true" className="size-4 shrink-0 text-amber-800" />
        <span className="flex min-w-0 flex-1 items-center gap-x-3 overflow-hidden whitespace-nowrap">
          {mine ? (
            <span className="inline-flex items-center gap-1">
              <span className="font-semibold">Din vurdering</span> <Stars rating={mine.rating} />
            </span>
          ) : (
            <span className="truncate font-semibold">Fristen for å gi {name} en vurdering er ute</span>
          )}
          {theirs ? (
            <span className="inline-flex items-center gap-1">
              <span className="font-semibold">{genitive(name)}</span> <Stars rating={theirs.rating} />
            </span>
          ) : null}
        </span>
      </StripLine>
      {/* Collapsed, the panel stays in the page (hidden), so the reviews' text is there when it opens. */}
      <div id={bodyId} hidden={!expanded} className="px-1 pb-1">
        <DealReviewPanel state={state} />
      </div>
    </div>
  );
}
