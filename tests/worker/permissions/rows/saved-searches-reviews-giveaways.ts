// Permission-matrix rows (../run.ts): saved searches, seller statistics, reviews of a deal, the public
// profile and the give-away queue.
import { env } from "cloudflare:workers";
import { signUnsubscribeToken } from "../../../../worker/features/saved-searches/unsubscribe-token";
import { type Row, all, ownerOnly, s, signedIn } from "../matrix";

export const SAVED_SEARCH_REVIEW_GIVEAWAY_ROWS: Row[] = [
  // Saved searches: the owner's own (anyone else's is 404); the unsubscribe link needs only its token.
  { route: "GET /api/saved-searches", request: () => ({ path: "/api/saved-searches" }), expected: signedIn(200) },
  { route: "GET /api/saved-searches/badge", request: () => ({ path: "/api/saved-searches/badge" }), expected: signedIn(200) },
  {
    route: "POST /api/saved-searches",
    request: () => ({ path: "/api/saved-searches", method: "POST", json: { name: "Brio", query: "q=brio" } }),
    expected: signedIn(201),
  },
  {
    route: "PATCH /api/saved-searches/:id",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}`, method: "PATCH", json: { name: "Kapret" } }),
    expected: ownerOnly(200),
  },
  {
    route: "DELETE /api/saved-searches/:id",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}`, method: "DELETE" }),
    expected: ownerOnly(204),
  },
  {
    route: "POST /api/saved-searches/:id/seen",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}/seen`, method: "POST" }),
    expected: ownerOnly(204),
  },
  {
    route: "POST /api/saved-searches/unsubscribe",
    request: async (w) => ({
      path: "/api/saved-searches/unsubscribe",
      method: "POST",
      json: { token: await signUnsubscribeToken(env, (await w.savedSearch()).id, w.owner.id) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },

  // Seller statistics: the listing's owner and staff.
  {
    route: "GET /api/analytics/listings/:id",
    request: async (w) => ({ path: `/api/analytics/listings/${(await w.listing()).id}` }),
    expected: s(401, 404, 200, 200, 200, 200),
  },
  { route: "GET /api/analytics/my-listings", request: () => ({ path: "/api/analytics/my-listings" }), expected: signedIn(200) },
  // Reviews (decision 070): the two parties of a deal only; everyone else 404. A suspended party may
  // read its deal's state but not write (403).
  {
    route: "POST /api/reviews",
    request: async (w) => ({
      path: "/api/reviews",
      method: "POST",
      json: { deal_kind: "sale", deal_id: await w.sale(), rating: 5, text: "Hyggelig handel." },
    }),
    expected: ownerOnly(201, 403),
  },
  {
    route: "GET /api/reviews/deals/:kind/:id",
    request: async (w) => ({ path: `/api/reviews/deals/sale/${await w.sale()}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/reviews/conversations/:id",
    request: async (w) => ({ path: `/api/reviews/conversations/${(await w.conversation()).id}` }),
    expected: ownerOnly(200),
  },
  // The public profile: open to everyone, a suspended user's too (decision 071).
  { route: "GET /api/users/:id", request: (w) => ({ path: `/api/users/${w.owner.id}` }), expected: all(200) },
  { route: "GET /bruker/:id", request: (w) => ({ path: `/bruker/${w.owner.id}` }), expected: all(200) },
  // The give-away queue (decision 075): anyone signed in may queue for someone else's free listing
  // (not a suspended user); only the giver reserves, releases and gives (403 for anyone else).
  { route: "GET /api/giveaways/mine", request: () => ({ path: "/api/giveaways/mine" }), expected: signedIn(200) },
  { route: "GET /api/giveaways/mine/unseen", request: () => ({ path: "/api/giveaways/mine/unseen" }), expected: signedIn(200) },
  {
    route: "POST /api/giveaways/mine/seen",
    request: () => ({ path: "/api/giveaways/mine/seen", method: "POST" }),
    expected: signedIn(204),
  },
  {
    route: "GET /api/giveaways/listings/:listingId",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("waiting")).id}` }),
    expected: all(200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/queue",
    request: async (w) => ({
      path: `/api/giveaways/listings/${(await w.partnersListing({ isFree: true, isTradeOffer: false, images: [] })).id}/queue`,
      method: "POST",
      json: { message: "Kan hente i kveld" },
    }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/leave",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveawayPlace()).id}/leave`, method: "POST" }),
    expected: s(401, 409, 200, 409, 409, 200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/reserve",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("waiting")).id}/reserve`, method: "POST", json: {} }),
    expected: s(401, 403, 200, 403, 403, 403),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/release",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("reserved")).id}/release`, method: "POST" }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/give",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("reserved")).id}/give`, method: "POST" }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
];
