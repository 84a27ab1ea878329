import { useQuery } from "@tanstack/react-query";
import { conversationReviewsQuery } from "../../api/reviews";
import { DealReviewPanel } from "../../components/reviews/DealReviewPanel";

/**
 * The review prompt above the chat once a sale or a swap in this conversation is completed (decision
 * 070). It refetches with the offer cards when the room says an offer changed, so the prompt appears
 * for both parties the moment the second handover confirmation lands. A failed fetch shows nothing.
 */
export function ConversationReviews({ conversationId }: { conversationId: string }) {
  const deals = useQuery(conversationReviewsQuery(conversationId));
  if (!deals.data?.length) return null;
  return (
    <section aria-label="Vurderinger" className="shrink-0 space-y-2 border-b border-stone-200 bg-white/70 p-3">
      {deals.data.map((state) => (
        <DealReviewPanel key={`${state.deal_kind}:${state.deal_id}`} state={state} />
      ))}
    </section>
  );
}
