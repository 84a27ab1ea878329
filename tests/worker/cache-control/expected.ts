// What each case of ./cases.ts must answer (../cache-control.integration.test.ts), in the table's
// order.

/** Status and Cache-Control ("-" for none: since decision 101 there is none) of every case, one line each. */
export const EXPECTED = `
GET /api/home (visitor): 200 public, no-cache
GET /api/config (visitor): 200 public, max-age=300
GET /api/search (visitor): 200 public, no-cache
GET /api/search (invalid query): 400 private, no-store
GET /api/listings/:id (own): 200 private, no-store
GET /api/listings/:id (unknown): 404 private, no-store
GET /api/listings/by-slug/:slug (unknown): 404 private, no-store
GET /api/auth/session (signed in): 200 no-store
GET /api/auth/session (visitor): 200 no-store
GET /api/me (signed in): 200 no-store
GET /api/me (visitor): 401 private, no-store
GET /api/me/vipps (signed in): 200 no-store
GET /api/auth/vipps/link (no waiting link): 400 no-store
GET /api/me/moderation (signed in): 200 no-store
GET /api/me/listings (signed in): 200 no-store
GET /api/me/sessions (signed in): 200 no-store
GET /api/me/listings/:id (own): 200 private, no-store
GET /api/favourites (signed in): 200 private, no-store
GET /api/favourites/ids (signed in): 200 private, no-store
GET /api/conversations (signed in): 200 no-store
GET /api/conversations (visitor): 401 private, no-store
GET /api/conversations/unread-count (signed in): 200 no-store
GET /api/conversations/:id (party): 200 no-store
GET /api/conversations/:id (unknown): 404 no-store
GET /api/conversations/:id (malformed): 404 no-store
GET /api/conversations/:id/messages (party): 200 no-store
GET /api/conversations/:id/messages (unknown): 404 private, no-store
GET /api/conversations/:id/messages (invalid query): 400 private, no-store
GET /api/test-notifications (visitor): 200 private, no-store
GET /api/trade-offers/proposal/:listingId (not for trade): 409 no-store
GET /api/trade-offers/proposal/:listingId (malformed): 404 no-store
GET /api/trade-offers/conversation/:conversationId (party): 200 no-store
GET /api/trade-offers/history/completed (signed in): 200 no-store
GET /api/trade-offers/history/completed (invalid query): 400 private, no-store
GET /api/trade-offers/history/:direction (sent): 200 no-store
GET /api/trade-offers/history/:direction (invalid direction): 400 private, no-store
GET /api/trade-offers/:id (party): 200 no-store
GET /api/trade-offers/:id (unknown): 404 no-store
GET /api/trade-offers/:id (visitor): 401 private, no-store
GET /api/payments/details (invalid query): 400 no-store
GET /api/payments/purchases (signed in): 200 no-store
GET /api/payments/purchases (visitor): 401 private, no-store
GET /api/payments/sales (signed in): 200 no-store
GET /api/payments/stripe/account (signed in): 200 no-store
GET /api/payments/orders (party): 200 no-store
GET /api/payments/orders (invalid query): 400 no-store
GET /api/payments/orders/:id (unknown): 404 no-store
GET /api/shipping/pickup-points (signed in): 200 no-store
GET /api/shipping/pickup-points (invalid query): 400 no-store
GET /api/payments/orders/:id/photos/:photoId (unknown): 404 private, no-store
GET /api/payments/orders/:id/photos/:photoId (visitor): 401 private, no-store
GET /api/moderation/payment-cases (admin): 200 no-store
GET /api/moderation/payment-cases (user): 403 private, no-store
GET /api/moderation/reports (admin): 200 no-store
GET /api/moderation/reports (user): 403 private, no-store
GET /api/moderation/staff (admin): 200 no-store
GET /api/admin/drift (admin): 200 no-store
GET /api/admin/drift (user): 403 private, no-store
GET /api/saved-searches (signed in): 200 private, no-store
GET /api/saved-searches/badge (signed in): 200 private, no-store
GET /api/analytics/listings/:id (own): 200 private, no-store
GET /api/analytics/listings/:id (visitor): 401 private, no-store
GET /api/analytics/my-listings (signed in): 200 private, no-store
GET /api/dev/mail (local): 200 private, no-store
GET /api/dev/mail.json (local): 200 private, no-store
GET /api/dev/analytics/summary (local): 200 no-store
GET /api/dev/d1-usage (local): 200 private, no-store
GET /api/openapi.json (local): 200 private, no-store
GET /api/reviews/deals/:kind/:id (party): 200 no-store
GET /api/reviews/deals/:kind/:id (unknown kind): 404 no-store
GET /api/reviews/conversations/:id (party): 200 no-store
GET /api/reviews/conversations/:id (visitor): 401 private, no-store
GET /api/users/:id (visitor): 200 public, no-cache
GET /api/users/:id (malformed): 404 private, no-store
GET /api/users/:id (invalid query): 400 private, no-store
GET /api/giveaways/mine (signed in): 200 no-store
GET /api/giveaways/mine (visitor): 401 private, no-store
GET /api/giveaways/mine/unseen (signed in): 200 no-store
GET /api/giveaways/listings/:listingId (visitor): 200 no-store
GET /api/giveaways/listings/:listingId (malformed): 404 no-store
POST /api/auth/signin (wrong password): 400 private, no-store
POST /api/auth/signin (signed in): 200 no-store
POST /api/me/export (wrong password): 400 private, no-store
POST /api/me/export (right password): 200 no-store
POST /api/reviews (invalid body): 400 no-store
POST /api/dev/saved-searches/match (local): 200 no-store
`.trim();
