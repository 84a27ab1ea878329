import { useQuery } from "@tanstack/react-query";
import { Star } from "lucide-react";
import { useId, useState } from "react";
import { genitive } from "../../../domain/format";
import { conversationReviewsQuery, type DealReviewStateBody } from "../../api/reviews";
import { DealReviewPanel } from "../../components/reviews/DealReviewPanel";
import { LazyReviewDialog } from "../../components/lazyDialogs";
import type { ReviewTarget } from "../../components/reviews/ReviewDialog";
import { Stars } from "../../components/reviews/Stars";
import { Button } from "../../components/ui/Button";
import { StripLine } from "./StripLine";

/**
 * The review prompt above the chat once a sale or a trade in this conversation is completed (decision
 * 070). It refetches with the offer cards when the room says an offer changed, so the prompt appears
 * for both parties the moment the second handover confirmation lands. A failed fetch shows nothing.
 * In the chat it is one line (decision 088): the question and "Gi vurdering" while the user may still
 * write; once answered (or too late) a summary that opens the whole panel.
 */
export function ConversationReviews({ conversationId }: { conversationId: string }) {
  const deals = useQuery(conversationReviewsQuery(conversationId));
  if (!deals.data?.length) return null;
  return (
    <section aria-label="Vurderinger" className="space-y-1">
      {deals.data.map((state) =>
        state.can_review ? (
          <ReviewPrompt key={`${state.deal_kind}:${state.deal_id}`} state={state} />
        ) : (
          <ReviewSummary key={`${state.deal_kind}:${state.deal_id}`} state={state} />
        ),
      )}
    </section>
  );
}

function ReviewPrompt({ state }: { state: DealReviewStateBody }) {
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const name = state.other_user.display_name;
  return (
    <div className="flex min-h-9 items-center gap-2 rounded-xl border border-amber-200 bg-amber-50 py-0.5 pr-0.5 pl-2.5 text-sm text-stone-900">
      <Star aria-hidden="true" className="size-4 shrink-0 text-amber-800" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold">
          <span className="sr-only">Handelen er fullført. </span>Hvordan gikk det med {name}?
        </p>
        {state.other_has_reviewed ? (
          <p className="truncate text-xs text-stone-700">{name} har gitt deg en vurdering. Gi din for å se den.</p>
        ) : null}
      </div>
      <Button size="sm" className="shrink-0" onClick={() => setTarget({ kind: state.deal_kind, id: state.deal_id, otherName: name })}>
        Gi vurdering
      </Button>
      <LazyReviewDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}

function ReviewSummary({ state }: { state: DealReviewStateBody }) {
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
