// The reviews feature through the typed client (decision 070, 071). The public profile with its
// reviews is the account feature's (account.ts).
import { queryOptions } from "@tanstack/react-query";
import { REVIEW_EVENT } from "../../domain/chat";
import type { CreateReviewInput } from "../../domain/schemas/reviews";
import { chatKeys } from "./chat";
import { api, call, type ResponseBody } from "./client";

/** A deal's reviews as one of its parties sees them (the prompt). */
export type DealReviewStateBody = ResponseBody<(typeof api.reviews.deals)[":kind"][":id"]["$get"]>;

const param = (value: string) => encodeURIComponent(value);

export const reviewKeys = {
  /** Invalidated after a review is sent (no query is cached under it today). */
  all: ["reviews"] as const,
  // The chat's live-event key for reviews: the chat invalidates it on "review" and on "trade_offer"
  // (a trade that completes opens the prompt).
  conversation: (conversationId: string) => chatKeys.event(conversationId, REVIEW_EVENT),
};

export const conversationReviewsQuery = (conversationId: string) =>
  queryOptions({
    queryKey: reviewKeys.conversation(conversationId),
    queryFn: ({ signal }) => call(api.reviews.conversations[":id"].$get({ param: { id: param(conversationId) } }, { init: { signal } })),
  });

export function submitReview(json: CreateReviewInput) {
  return call(api.reviews.$post({ json }));
}
