import { useQuery } from "@tanstack/react-query";
import { Star } from "lucide-react";
import { type ComponentType, lazy, Suspense, useState } from "react";
import { conversationReviewsQuery, type DealReviewStateBody } from "../../api/reviews";
import { LazyReviewDialog } from "../../components/lazyDialogs";
import type { ReviewTarget } from "../../components/reviews/ReviewDialog";
import { Button } from "../../components/ui/Button";

// The answered reviews' line and panel: code (about 1 KB gzipped) that a chat still asking for a
// review does not need. Code that cannot be loaded leaves the line out, as a failed fetch does.
const ReviewSummary = lazy<ComponentType<{ state: DealReviewStateBody }>>(() =>
  import("./ReviewSummary").then(
    (m) => ({ default: m.ReviewSummary }),
    () => ({ default: () => null }),
  ),
);

/**
 * The review prompt above the chat once a sale or a trade in this conversation is completed (decision
 * 070). It refetches with the offer cards when the room says an offer changed, so the prompt appears
 * for both parties the moment the second handover confirmation lands. A failed fetch shows nothing.
 * In the chat it is one line (decision 088): the question and "Gi vurdering" while the user may still
 * write; once answered (or too late) a summary that opens the whole panel, in its place at its
 * height while its code arrives.
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
          <Suspense
            key={`${state.deal_kind}:${state.deal_id}`}
            fallback={<div className="min-h-9 rounded-xl border border-amber-200 bg-amber-50" />}
          >
            <ReviewSummary state={state} />
          </Suspense>
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
