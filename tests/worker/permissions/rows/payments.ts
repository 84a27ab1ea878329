// Permission-matrix rows (../run.ts): checkout, held money, a problem's photos, Stripe accounts, the
// providers' and the carrier's webhooks and the payment cases staff decide.
import { jpegPhoto } from "../../../factories";
import { connectedSeller, payableListing } from "../../support/payments";
import { type Row, all, ownerOnly, s, signedIn, staff } from "../matrix";

export const PAYMENT_ROWS: Row[] = [
  // Payments (the provider is the payment sandbox).
  {
    route: "POST /api/payments/checkout",
    request: async () => {
      const seller = await connectedSeller();
      return { path: "/api/payments/checkout", method: "POST", json: { listing_id: (await payableListing(seller.id)).id, method: "card" } };
    },
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/payments/verify",
    request: async (w) => ({
      path: "/api/payments/verify",
      method: "POST",
      json: { session_id: (await w.purchase()).sessionId, payment_id: (await w.purchase()).paymentId },
    }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/payments/details",
    request: async (w) => ({ path: `/api/payments/details?session_id=${(await w.purchase()).sessionId}` }),
    expected: ownerOnly(200),
  },
  // Held money (decision 105): only its buyer and seller see or move an order; a moderator only a case.
  {
    route: "GET /api/payments/orders",
    request: async (w) => ({ path: `/api/payments/orders?conversation_id=${(await w.heldOrder("buyer")).conversationId}` }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/payments/orders/:id",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/payments/orders/:id/handed-over",
    ownerConnected: true,
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("seller")).id}/handed-over`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/payments/orders/:id/received",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/received`, method: "POST" }),
    expected: ownerOnly(200),
  },
  // Photos of a problem report (decision 108): the buyer uploads for the order; a case's photos are
  // read by its buyer, its seller and staff with staff rights (a case), never by anyone else.
  {
    route: "POST /api/payments/orders/:id/photos",
    request: async (w) => ({
      path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/photos`,
      method: "POST",
      body: jpegPhoto(),
      headers: { "Content-Type": "image/jpeg" },
    }),
    expected: ownerOnly(201),
  },
  {
    route: "GET /api/payments/orders/:id/photos/:photoId",
    request: async (w) => {
      const { id, photoId } = await w.casePhoto();
      return { path: `/api/payments/orders/${id}/photos/${photoId}` };
    },
    expected: s(401, 404, 200, 200, 200, 200),
  },
  {
    route: "POST /api/payments/orders/:id/problem",
    variant: "with a photo already used in another case",
    request: async (w) => {
      const { photoId } = await w.casePhoto();
      return {
        path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/problem`,
        method: "POST",
        json: { reason: "damaged", text: "Leken kom i stykker.", photos: [photoId] },
      };
    },
    expected: s(401, 404, 409, 404, 404, 409),
  },
  {
    route: "POST /api/payments/orders/:id/problem",
    request: async (w) => ({
      path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/problem`,
      method: "POST",
      json: { reason: "not_received", text: "Pakken har ikke kommet." },
    }),
    expected: ownerOnly(200),
  },
  // Before 7 days without a handover the buyer's cancel is refused (409); nobody else sees the order.
  {
    route: "POST /api/payments/orders/:id/cancel",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/cancel`, method: "POST" }),
    expected: ownerOnly(409),
  },
  // A sent order's parcel (decision 150): only its parties may ask for a new booking; an order
  // picked up has no parcel (409).
  {
    route: "POST /api/payments/orders/:id/shipment/retry",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/shipment/retry`, method: "POST" }),
    expected: ownerOnly(409),
  },
  // The checkout's pickup points (the carrier is the payment sandbox's): any signed-in buyer.
  {
    route: "GET /api/shipping/pickup-points",
    request: () => ({ path: "/api/shipping/pickup-points?carrier=bring&delivery=pickup_point&postal_code=5003" }),
    expected: signedIn(200),
  },
  { route: "GET /api/payments/purchases", request: () => ({ path: "/api/payments/purchases" }), expected: signedIn(200) },
  { route: "GET /api/payments/sales", request: () => ({ path: "/api/payments/sales" }), expected: signedIn(200) },
  { route: "GET /api/payments/stripe/account", request: () => ({ path: "/api/payments/stripe/account" }), expected: signedIn(200) },
  {
    route: "POST /api/payments/stripe/account-link",
    request: () => ({ path: "/api/payments/stripe/account-link", method: "POST" }),
    expected: signedIn(200),
  },
  // Only a seller who has connected Stripe has a dashboard; everyone else is told to connect first.
  {
    route: "POST /api/payments/stripe/dashboard-link",
    ownerConnected: true,
    request: () => ({ path: "/api/payments/stripe/dashboard-link", method: "POST" }),
    expected: s(401, 409, 200, 409, 409, 200),
  },
  // Providers authenticate by signature, never by session: an unsigned event is refused for everyone.
  {
    route: "POST /api/payments/webhooks/stripe",
    variant: "unsigned",
    request: () => ({
      path: "/api/payments/webhooks/stripe",
      method: "POST",
      body: JSON.stringify({ id: "evt_x", type: "checkout.session.completed" }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/payments/webhooks/vipps",
    variant: "unsigned",
    request: () => ({
      path: "/api/payments/webhooks/vipps",
      method: "POST",
      body: JSON.stringify({ reference: "x", name: "AUTHORIZED" }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(400),
  },
  // The carriers' tracking events (decisions 147, 154): the same, answered 401.
  {
    route: "POST /api/shipping/webhooks/bring",
    variant: "unsigned",
    request: () => ({
      path: "/api/shipping/webhooks/bring",
      method: "POST",
      body: JSON.stringify({ eventId: "e1", consignmentNumber: "70438101000000003", status: "DELIVERED", dateIso: "2026-11-29T10:00:00Z" }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(401),
  },
  {
    route: "POST /api/shipping/webhooks/helthjem",
    variant: "unsigned",
    request: () => ({
      path: "/api/shipping/webhooks/helthjem",
      method: "POST",
      body: JSON.stringify({
        eventId: "e1",
        shipmentNumber: "70724760000000003",
        eventType: { apiKey: "DELIVERED" },
        eventTimeUtc: "2026-11-29T10:00:00Z",
      }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(401),
  },

  // Payment cases beside the reports (decision 105): staff only; the owner is the case's buyer.
  {
    route: "GET /api/moderation/payment-cases",
    request: () => ({ path: "/api/moderation/payment-cases" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.heldOrder("buyer", true)).id}/decision`,
      method: "POST",
      json: { action: "release_by_moderator" },
    }),
    expected: staff(200),
  },
];
