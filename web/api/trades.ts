// The trades feature (/api/trade-offers): proposals, offers in the chat, the trade history.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { TRADE_OFFER_EVENT } from "../../domain/chat";
import type { TradeAction } from "../../domain/trades";
import { chatKeys } from "./chat";
import { api, call, type ResponseBody as Body } from "./client";
const routes = api["trade-offers"];
const param = (value: string) => encodeURIComponent(value);

/** GET /api/trade-offers/proposal/:listingId: the wanted listing and the user's own active ones. */
export type TradeProposalBody = Body<(typeof routes)["proposal"][":listingId"]["$get"]>;
/** An offer as its viewer sees it (chat cards, "Sendt", "Mottatt"). */
export type TradeOfferBody = Body<(typeof routes)[":id"]["$get"]>;
/** GET /api/trade-offers/history/completed. */
export type CompletedTradesBody = Body<(typeof routes)["history"]["completed"]["$get"]>;
export type OffersPageBody = Body<(typeof routes)["history"][":direction"]["$get"]>;

export const tradeKeys = {
  /** The chat invalidates ["conversations", "event", id, name] on a live event, so the cards refetch. */
  conversation: (conversationId: string) => chatKeys.event(conversationId, TRADE_OFFER_EVENT),
  history: ["trade-history"] as const,
  proposal: (listingId: string) => ["trade-proposal", listingId] as const,
};

export const tradeProposalQuery = (listingId: string) =>
  queryOptions({
    queryKey: tradeKeys.proposal(listingId),
    queryFn: ({ signal }) => call(routes.proposal[":listingId"].$get({ param: { listingId: param(listingId) } }, { init: { signal } })),
    retry: false,
  });

export const conversationTradeOffersQuery = (conversationId: string) =>
  queryOptions({
    queryKey: tradeKeys.conversation(conversationId),
    queryFn: ({ signal }) =>
      call(routes.conversation[":conversationId"].$get({ param: { conversationId: param(conversationId) } }, { init: { signal } })),
  });

/** The offset of the next page of 50 is the number of rows already shown. */
const nextOffset = <T extends { items: unknown[]; has_more: boolean }>(last: T, all: T[]) =>
  last.has_more ? all.reduce((n, page) => n + page.items.length, 0) : undefined;

/** "Sendt" or "Mottatt": one request per page, each with the three tab counts. */
export const tradeOffersQuery = (direction: "sent" | "received") =>
  infiniteQueryOptions({
    queryKey: [...tradeKeys.history, direction] as const,
    queryFn: ({ pageParam, signal }) =>
      call(routes.history[":direction"].$get({ param: { direction }, query: { offset: String(pageParam) } }, { init: { signal } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

/** "Fullført": the completed trades, one request per page, with the three tab counts. */
export const completedTradesQuery = () =>
  infiniteQueryOptions({
    queryKey: [...tradeKeys.history, "completed"] as const,
    queryFn: ({ pageParam, signal }) => call(routes.history.completed.$get({ query: { offset: String(pageParam) } }, { init: { signal } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  });

/** "Send bytteforslag": the offer lands in the conversation with the seller (new or existing). */
export function sendTradeOffer(body: {
  requested_listing_id: string;
  offered_listing_id: string;
  message: string | null;
}): Promise<{ id: string; conversation_id: string }> {
  return call(routes.$post({ json: body }));
}

/** Accept, reject, withdraw or cancel, confirm the handover: the offer as the caller now sees it. */
export function moveTradeOffer(offerId: string, action: TradeAction): Promise<TradeOfferBody> {
  const route = routes[":id"][action];
  return call(route.$post({ param: { id: param(offerId) } }));
}
