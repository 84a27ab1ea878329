// The staff cases and the moderation rows that staff-rules.integration.test.ts asks in each of them.
import type { Req } from "./matrix";
import type { World } from "./world";

/**
 * The moderation routes, each also asked by staff who may not act (decision 052): a suspended
 * moderator or admin (no staff rights at all), a moderator on a moderator's or an admin's target, a
 * moderator or an admin on their own (the "owner" is the staff member). Rows with a variant are in
 * `inMatrix` rows are in the main matrix (over its six roles) too.
 */
export const STAFF_CASES = {
  "suspended moderator": { actor: "moderator", suspended: true, owner: "user" },
  "suspended admin": { actor: "admin", suspended: true, owner: "user" },
  "moderator on a moderator": { actor: "moderator", suspended: false, owner: "moderator" },
  "moderator on an admin": { actor: "moderator", suspended: false, owner: "admin" },
  "moderator on themselves": { actor: "moderator", suspended: false, owner: "self" },
  "admin on themselves": { actor: "admin", suspended: false, owner: "self" },
  "admin on a moderator": { actor: "admin", suspended: false, owner: "moderator" },
} as const;
export type StaffCase = keyof typeof STAFF_CASES;
export const STAFF_CASE_NAMES = Object.keys(STAFF_CASES) as StaffCase[];
/** Statuses in STAFF_CASES order. */
const sc = (...statuses: number[]): Record<StaffCase, number> =>
  Object.fromEntries(STAFF_CASE_NAMES.map((name, i) => [name, statuses[i]])) as Record<StaffCase, number>;
/** A decision on the owner's target: only the admin acting on a moderator may. */
const decision = sc(403, 403, 403, 403, 403, 403, 200);

export const MODERATION_STAFF_ROWS: {
  route: string;
  variant: string;
  inMatrix?: true;
  request: (w: World) => Promise<Req> | Req;
  expected: Record<StaffCase, number>;
}[] = [
  // Reading the dashboard is refused to suspended staff only.
  {
    route: "GET /api/moderation/reports",
    variant: "the dashboard",
    request: () => ({ path: "/api/moderation/reports?status=pending" }),
    expected: sc(403, 403, 200, 200, 200, 200, 200),
  },
  {
    route: "POST /api/moderation/reports/:id/review",
    variant: "Behandle",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/review`, method: "POST" }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "hide a listing",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "hide", notes: "Regelbrudd" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "suspend a user for a year",
    inMatrix: true,
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.userReport()}/actions`,
      method: "POST",
      json: { action: "delete", notes: "Regelbrudd", suspension_days: 365 },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "approve (in the owner's favour)",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "approve", notes: null },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/dismiss",
    variant: "dismiss (in the owner's favour)",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/dismiss`, method: "POST", json: { notes: "Ok" } }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/targets/:type/:id/unhide",
    variant: "show a listing again",
    request: async (w) => ({
      path: `/api/moderation/targets/listing/${(await w.hiddenListing()).id}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: decision,
  },
  {
    // On themselves: the staff member is the one suspended, lifting their own suspension.
    route: "POST /api/moderation/targets/:type/:id/unhide",
    variant: "lift a suspension",
    inMatrix: true,
    request: async (w) => ({
      path: `/api/moderation/targets/user/${await w.suspendedOwner()}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: decision,
  },
  {
    route: "GET /api/moderation/staff",
    variant: "the staff list",
    request: () => ({ path: "/api/moderation/staff" }),
    expected: sc(403, 403, 403, 403, 403, 200, 200),
  },
  {
    route: "PUT /api/moderation/roles",
    variant: "make someone a moderator",
    request: async (w) => ({ path: "/api/moderation/roles", method: "PUT", json: { email: (await w.partner()).email, role: "moderator" } }),
    expected: sc(403, 403, 403, 403, 403, 200, 200),
  },
  // Staff-only views outside the dashboard: a hidden listing and its photo (the owner always sees them).
  {
    route: "GET /api/listings/:id",
    variant: "a hidden listing",
    request: async (w) => ({ path: `/api/listings/${(await w.hiddenListing()).id}` }),
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
  {
    route: "GET /images/*",
    variant: "photo of a hidden listing",
    request: async (w) => ({ path: `/images/${(await w.hiddenListing()).images[0]}` }),
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
  // Payment cases (decisions 085, 105): the owner is the buyer, or the seller, of the case. Nobody
  // decides a case they are a party to; a case with staff on either side only an admin decides.
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "refund, the owner is the buyer",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.heldOrder("buyer", true)).id}/decision`,
      method: "POST",
      json: { action: "refund" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "release, the owner is the seller",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.caseAsSeller()).id}/decision`,
      method: "POST",
      json: { action: "release_by_moderator" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "partial refund, the owner is the seller",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.caseAsSeller()).id}/decision`,
      method: "POST",
      json: { action: "partial_refund", refund_amount: 10_000 },
    }),
    expected: decision,
  },
  // A case's photo: staff with staff rights read it, parties too (the owner is the buyer).
  {
    route: "GET /api/payments/orders/:id/photos/:photoId",
    variant: "a case's photo",
    request: async (w) => {
      const { id, photoId } = await w.casePhoto();
      return { path: `/api/payments/orders/${id}/photos/${photoId}` };
    },
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
];
