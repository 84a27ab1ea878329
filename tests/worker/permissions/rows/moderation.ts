// Permission-matrix rows (../run.ts): reports and the moderation dashboard (staff who may not act are
// asked in ../staff-rules.integration.test.ts).
import { type Row, adminOnly, signedIn, staff } from "../matrix";
import { MODERATION_STAFF_ROWS } from "../staff-rows";

export const MODERATION_ROWS: Row[] = [
  // Reports and moderation.
  {
    route: "POST /api/reports",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.partnersListing()).id, reason: "Falsk annonse" },
    }),
    expected: signedIn(201),
  },
  {
    route: "POST /api/reports",
    variant: "a second report by the same reporter, another reason (kept beside the first, decision 083)",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.actorsReport()).id, reason: "Spam/reklame" },
    }),
    expected: signedIn(201),
  },
  {
    route: "POST /api/reports",
    variant: "an identical repeat while the first is open (not stored twice)",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.actorsReport()).id, reason: "Falsk annonse" },
    }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/moderation/reports",
    variant: "the dashboard",
    request: () => ({ path: "/api/moderation/reports?status=pending" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/review",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/review`, method: "POST" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "hide", notes: "Regelbrudd" },
    }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/dismiss",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/dismiss`, method: "POST", json: { notes: "Ok" } }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/targets/:type/:id/unhide",
    request: async (w) => ({
      path: `/api/moderation/targets/listing/${(await w.hiddenListing()).id}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: staff(200),
  },
  { route: "GET /api/moderation/staff", request: () => ({ path: "/api/moderation/staff" }), expected: adminOnly(200) },
  // The operator's page (decision 134).
  { route: "GET /api/admin/drift", request: () => ({ path: "/api/admin/drift" }), expected: adminOnly(200) },
  {
    route: "PUT /api/moderation/roles",
    request: async (w) => ({ path: "/api/moderation/roles", method: "PUT", json: { email: (await w.partner()).email, role: "moderator" } }),
    expected: adminOnly(200),
  },
  ...MODERATION_STAFF_ROWS.filter((row) => row.inMatrix).map(({ route, variant, request }) => ({
    route,
    variant,
    request,
    expected: staff(200),
  })),
];
