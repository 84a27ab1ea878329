// Permission-matrix rows (../run.ts): conversations, the live sockets, test notifications and trades.
import { type Row, all, ownerOnly, s, signedIn } from "../matrix";

export const CHAT_AND_TRADE_ROWS: Row[] = [
  // Conversations and the live sockets.
  { route: "GET /api/conversations", request: () => ({ path: "/api/conversations" }), expected: signedIn(200) },
  {
    route: "POST /api/conversations",
    request: async (w) => ({ path: "/api/conversations", method: "POST", json: { listing_id: (await w.partnersListing()).id } }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  { route: "GET /api/conversations/unread-count", request: () => ({ path: "/api/conversations/unread-count" }), expected: signedIn(200) },
  {
    route: "GET /api/conversations/:id",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/conversations/:id/messages",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/messages` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/conversations/:id/messages",
    request: async (w) => ({
      path: `/api/conversations/${(await w.conversation()).id}/messages`,
      method: "POST",
      json: { id: crypto.randomUUID(), content: "Er den ledig?" },
    }),
    expected: ownerOnly(201, 403),
  },
  {
    route: "POST /api/conversations/:id/read",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/read`, method: "POST", json: {} }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/conversations/:id/live",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/live?after=0`, ws: true }),
    expected: ownerOnly(101),
  },
  {
    route: "GET /api/conversations/:id/live",
    variant: "not as a WebSocket",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/live` }),
    expected: all(400),
  },
  { route: "GET /api/conversations/live", request: () => ({ path: "/api/conversations/live", ws: true }), expected: signedIn(101) },
  { route: "GET /api/test-notifications", request: () => ({ path: "/api/test-notifications" }), expected: all(200) },
  {
    route: "POST /api/test-notifications",
    request: async (w) => {
      await w.conversation();
      return { path: "/api/test-notifications", method: "POST", json: { content: "Test melding for notifikasjoner" } };
    },
    // Only the owner has a conversation; a system message is not the suspended user's own write.
    expected: s(401, 404, 201, 404, 404, 201),
  },

  // Trades.
  {
    route: "GET /api/trade-offers/proposal/:listingId",
    request: async (w) => ({ path: `/api/trade-offers/proposal/${(await w.partnersListing()).id}` }),
    expected: signedIn(200),
  },
  {
    route: "POST /api/trade-offers",
    request: async (w) => ({
      path: "/api/trade-offers",
      method: "POST",
      json: { requested_listing_id: (await w.partnersListing()).id, offered_listing_id: (await w.actorsListing()).id, message: "Bytte?" },
    }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "GET /api/trade-offers/conversation/:conversationId",
    request: async (w) => ({ path: `/api/trade-offers/conversation/${(await w.trade("sender")).conversationId}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/trade-offers/history/completed",
    request: () => ({ path: "/api/trade-offers/history/completed" }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/trade-offers/history/:direction",
    request: () => ({ path: "/api/trade-offers/history/received" }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/trade-offers/:id",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender")).offerId}` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/accept",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("recipient")).offerId}/accept`, method: "POST" }),
    expected: ownerOnly(200, 403),
  },
  {
    route: "POST /api/trade-offers/:id/reject",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("recipient")).offerId}/reject`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/cancel",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender")).offerId}/cancel`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/confirm",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender", "accepted")).offerId}/confirm`, method: "POST" }),
    expected: ownerOnly(200),
  },
];
