// Reviews and the public profile through the typed client (decision 070, 071).
import { queryOptions } from "@tanstack/react-query";
import { REVIEW_EVENT } from "../../domain/reviews";
import type { CreateReviewInput } from "../../domain/schemas/reviews";
import { api, call, type SuccessBody } from "./client";
import { preloadedData } from "./preloaded";

type Body<T extends (...args: never[]) => Promise<unknown>> = SuccessBody<Awaited<ReturnType<T>>>;

/** A deal's reviews as one of its parties sees them (the prompt). */
export type DealReviewStateBody = Body<(typeof api.reviews.deals)[":kind"][":id"]["$get"]>;
/** GET /api/users/:id: the public profile. */
export type PublicProfileBody = Body<(typeof api.users)[":id"]["$get"]>;
export type ReviewBody = PublicProfileBody["reviews"][number];

const param = (value: string) => encodeURIComponent(value);

export const reviewKeys = {
  // The chat's live-event key for reviews: the chat invalidates it on "review" and on "trade_offer"
  // (a swap that completes opens the prompt).
  conversation: (conversationId: string) => ["conversations", "event", conversationId, REVIEW_EVENT] as const,
  profile: (userId: string) => ["users", userId] as const,
};

export const conversationReviewsQuery = (conversationId: string) =>
  queryOptions({
    queryKey: reviewKeys.conversation(conversationId),
    queryFn: ({ signal }) => call(api.reviews.conversations[":id"].$get({ param: { id: param(conversationId) } }, { init: { signal } })),
  });

/** The first page comes inlined in /bruker/{id} (the edge page) when the app starts there. */
export const publicProfileQuery = (userId: string) =>
  queryOptions({
    queryKey: reviewKeys.profile(userId),
    queryFn: ({ signal }) => call(api.users[":id"].$get({ param: { id: param(userId) }, query: {} }, { init: { signal } })),
    retry: false,
    ...preloadedData<PublicProfileBody>(`/api/users/${encodeURIComponent(userId)}`),
  });

/** "Vis flere": the next page of reviews. */
export function profileReviewsPage(userId: string, offset: number) {
  return call(api.users[":id"].$get({ param: { id: param(userId) }, query: { offset: String(offset) } }));
}

export function submitReview(json: CreateReviewInput) {
  return call(api.reviews.$post({ json }));
}
