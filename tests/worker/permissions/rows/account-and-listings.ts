// Permission-matrix rows (../run.ts): the signed-in user's own account, favourites, listings and photos.
import { env } from "cloudflare:workers";
import { jpegPhoto } from "../../../factories";
import { type Row, all, form, ownerOnly, PASSWORD, s, signedIn } from "../matrix";

export const ACCOUNT_AND_LISTING_ROWS: Row[] = [
  // The signed-in user's own account.
  { route: "GET /api/me", request: () => ({ path: "/api/me" }), expected: signedIn(200) },
  {
    route: "PATCH /api/me/profile",
    request: () => ({ path: "/api/me/profile", method: "PATCH", json: { display_name: "Nytt Navn" } }),
    expected: signedIn(200),
  },
  { route: "GET /api/me/moderation", request: () => ({ path: "/api/me/moderation" }), expected: signedIn(200) },
  { route: "GET /api/me/listings", request: () => ({ path: "/api/me/listings" }), expected: signedIn(200) },
  {
    route: "GET /api/me/listings/:id",
    request: async (w) => ({ path: `/api/me/listings/${(await w.listing()).id}` }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  // The owner's password: everyone else's own password differs (400), the owner's works.
  {
    route: "POST /api/me/export",
    ownerPassword: true,
    request: () => ({ path: "/api/me/export", method: "POST", json: { password: PASSWORD } }),
    expected: s(401, 400, 200, 400, 400, 200),
  },
  { route: "GET /api/me/vipps", request: () => ({ path: "/api/me/vipps" }), expected: signedIn(200) },
  // The owner's password starts "Koble til Vipps"; the others' own passwords differ (400).
  {
    route: "POST /api/me/vipps/start",
    ownerPassword: true,
    request: () => ({ path: "/api/me/vipps/start", method: "POST", json: { password: PASSWORD } }),
    expected: s(401, 400, 200, 400, 400, 200),
  },
  // Nobody's account here is linked to Vipps: nothing to unlink.
  {
    route: "DELETE /api/me/vipps",
    variant: "not linked",
    request: () => ({ path: "/api/me/vipps", method: "DELETE", json: { password: PASSWORD } }),
    expected: signedIn(404),
  },
  {
    route: "DELETE /api/me",
    ownerPassword: true,
    request: () => ({ path: "/api/me", method: "DELETE", json: { password: PASSWORD } }),
    expected: s(401, 400, 204, 400, 400, 204),
  },
  // "Endre passord" and "Endre e-post" ask for the owner's password (everyone else's differs: 400);
  // a suspension does not keep anyone from securing their own account.
  {
    route: "POST /api/me/password",
    ownerPassword: true,
    request: () => ({
      path: "/api/me/password",
      method: "POST",
      json: { current_password: PASSWORD, password: "nyttpassord", password_confirm: "nyttpassord" },
    }),
    expected: s(401, 400, 204, 400, 400, 204),
  },
  {
    route: "POST /api/me/email",
    ownerPassword: true,
    request: () => ({ path: "/api/me/email", method: "POST", json: { email: `flytt-${crypto.randomUUID()}@test.no`, password: PASSWORD } }),
    expected: s(401, 400, 202, 400, 400, 202),
  },
  // "Innlogget på": one's own sessions only; another's session is not found.
  { route: "GET /api/me/sessions", request: () => ({ path: "/api/me/sessions" }), expected: signedIn(200) },
  {
    route: "POST /api/me/sessions/sign-out-others",
    request: () => ({ path: "/api/me/sessions/sign-out-others", method: "POST" }),
    expected: signedIn(204),
  },
  {
    route: "DELETE /api/me/sessions/:id",
    request: async (w) => {
      const family = crypto.randomUUID();
      await env.DB.prepare(
        "INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, family_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
      )
        .bind(crypto.randomUUID(), w.owner.id, family, crypto.randomUUID(), new Date(Date.now() + 3_600_000).toISOString())
        .run();
      return { path: `/api/me/sessions/${family}`, method: "DELETE" };
    },
    expected: ownerOnly(204),
  },
  { route: "GET /api/favourites", request: () => ({ path: "/api/favourites" }), expected: signedIn(200) },
  { route: "GET /api/favourites/ids", request: () => ({ path: "/api/favourites/ids" }), expected: signedIn(200) },
  {
    route: "PUT /api/favourites/:listingId",
    request: async (w) => ({ path: `/api/favourites/${(await w.partnersListing()).id}`, method: "PUT" }),
    expected: signedIn(204),
  },
  {
    route: "DELETE /api/favourites/:listingId",
    request: async (w) => ({ path: `/api/favourites/${(await w.partnersListing()).id}`, method: "DELETE" }),
    expected: signedIn(204),
  },

  // Listings and photos.
  {
    route: "PUT /api/listings/:id",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}`, method: "PUT", json: form([await w.photo()]) }),
    expected: s(401, 403, 200, 403, 403, 403),
  },
  {
    route: "PUT /api/listings/:id",
    variant: "sale: the deal's listing (read only for all but its owner)",
    request: async (w) => ({ path: `/api/listings/${(await w.dealListing("sale")).id}`, method: "PUT", json: form([]) }),
    expected: s(401, 403, 403, 403, 403, 403),
  },
  {
    route: "POST /api/listings/:id/status",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}/status`, method: "POST", json: { status: "reserved" } }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  {
    route: "DELETE /api/listings/:id",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}`, method: "DELETE" }),
    expected: s(401, 403, 204, 403, 403, 204),
  },
  {
    route: "POST /api/images",
    request: () => ({ path: "/api/images", method: "POST", body: jpegPhoto(), headers: { "Content-Type": "image/jpeg" } }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "DELETE /api/images/:key{.+}",
    request: async (w) => ({ path: `/api/images/${await w.photo()}`, method: "DELETE" }),
    expected: s(401, 404, 204, 404, 404, 204),
  },
  {
    route: "GET /images/*",
    variant: "photo of a public listing",
    request: async (w) => ({ path: `/images/${(await w.listing()).images[0]}` }),
    expected: all(200),
  },
  {
    route: "GET /images/*",
    variant: "photo of a hidden listing",
    request: async (w) => ({ path: `/images/${(await w.hiddenListing()).images[0]}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  // The create wizard shows its uploads before the listing exists: to their uploader only.
  {
    route: "GET /images/*",
    variant: "a photo in no listing",
    request: async (w) => ({ path: `/images/${await w.photo()}` }),
    expected: s(404, 404, 200, 404, 404, 200),
  },
];
