// Telling the other party about a new review, after D1 has it (decision 070): a system message in
// the deal's conversation — live, with the unread badge and, for someone offline, the unread-message
// e-mail (decision 030) — and the live event "review" that makes open chats reload the prompt. The
// text never reveals the review itself. A failure is logged; the review stands.
import { REVIEW_EVENT } from "../../../domain/chat";
import { reviewWindowClosesAt, reviewWrittenText, reviewsRevealedText, type DealKind } from "../../../domain/reviews";
import { ANONYMOUS_NAME } from "../../../domain/chat";
import type { Bindings } from "../../env";
import { postSystemMessage, pushConversationEvent } from "../chat/live";
import { findDeal } from "./deals";

export async function announceReview(
  env: Bindings,
  kind: DealKind,
  dealId: string,
  review: { id: string; reviewerName: string | null },
): Promise<void> {
  try {
    const db = env.DB;
    const deal = await findDeal(db, kind, dealId);
    if (!deal?.conversationId || !deal.completedAt) return;
    const row = await db
      .prepare("SELECT COUNT(*) AS n FROM reviews WHERE deal_kind = ?1 AND deal_id = ?2")
      .bind(kind, dealId)
      .first<{ n: number }>();
    const text =
      (row?.n ?? 0) >= 2
        ? reviewsRevealedText()
        : reviewWrittenText(review.reviewerName?.trim() || ANONYMOUS_NAME, reviewWindowClosesAt(deal.completedAt));
    // The review's id as the message id: a retry cannot post it twice.
    await postSystemMessage(env, deal.conversationId, text, review.id);
    await pushConversationEvent(env, deal.conversationId, REVIEW_EVENT, { deal_kind: kind, deal_id: dealId });
  } catch (err) {
    console.error("announceReview failed", kind, dealId, err);
  }
}
