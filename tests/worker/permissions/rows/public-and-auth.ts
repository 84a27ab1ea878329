// Permission-matrix rows (../run.ts): what everyone may read, signing up and in, Vipps Login, the
// account mails' links, the newsletter and the contact form.
import { type Row, all, PASSWORD, s } from "../matrix";
import { signInUser } from "../run";

export const PUBLIC_AND_AUTH_ROWS: Row[] = [
  // Open to everyone.
  { route: "GET /api/home", request: () => ({ path: "/api/home" }), expected: all(200) },
  { route: "GET /api/config", request: () => ({ path: "/api/config" }), expected: all(200) },
  { route: "GET /api/search", request: () => ({ path: "/api/search?q=lego&sort=price_asc" }), expected: all(200) },
  {
    route: "GET /api/listings/:id",
    variant: "public",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}` }),
    expected: all(200),
  },
  {
    route: "GET /api/listings/:id",
    variant: "hidden",
    request: async (w) => ({ path: `/api/listings/${(await w.hiddenListing()).id}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  {
    route: "GET /api/listings/by-slug/:slug",
    variant: "hidden",
    request: async (w) => ({ path: `/api/listings/by-slug/${(await w.hiddenListing()).seoSlug}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  // A finished deal's listing: everyone reads it, read only (decision 117).
  ...(["sale", "trade", "giveaway"] as const).map(
    (kind): Row => ({
      route: "GET /api/listings/:id",
      variant: `${kind}: the deal's listing`,
      request: async (w) => ({ path: `/api/listings/${(await w.dealListing(kind)).id}` }),
      expected: all(200),
    }),
  ),
  {
    route: "GET /api/listings/by-slug/:slug",
    variant: "sale: the deal's listing",
    request: async (w) => ({ path: `/api/listings/by-slug/${(await w.dealListing("sale")).seoSlug}` }),
    expected: all(200),
  },
  { route: "GET /api/auth/session", request: () => ({ path: "/api/auth/session" }), expected: all(200) },
  {
    route: "POST /api/auth/signup",
    request: (w) => ({
      path: "/api/auth/signup",
      method: "POST",
      json: { display_name: "Nina", email: `ny-${crypto.randomUUID()}@test.no`, password: PASSWORD, postal_code: "0150" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },
  {
    route: "POST /api/auth/signin",
    request: (w) => ({
      path: "/api/auth/signin",
      method: "POST",
      json: { email: signInUser.email, password: PASSWORD },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/signin",
    variant: "wrong password",
    request: (w) => ({
      path: "/api/auth/signin",
      method: "POST",
      json: { email: w.owner.email, password: "feil-passord" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/resend",
    request: (w) => ({ path: "/api/auth/resend", method: "POST", json: { email: w.owner.email }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/callback",
    variant: "unknown code",
    request: (w) => ({ path: "/api/auth/callback", method: "POST", json: { code: "a".repeat(43) }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/refresh",
    variant: "no refresh cookie",
    request: () => ({ path: "/api/auth/refresh", method: "POST" }),
    expected: all(401),
  },
  { route: "POST /api/auth/signout", request: () => ({ path: "/api/auth/signout", method: "POST" }), expected: all(204) },
  // Vipps Login (decision 128): anyone may start one; a callback, a link proof or a mailed code is
  // only good with the browser's own cookies or the mailed code, which none of these requests has.
  {
    route: "POST /api/auth/vipps/start",
    request: (w) => ({ path: "/api/auth/vipps/start", method: "POST", json: {}, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/vipps/callback",
    variant: "unknown state",
    request: (w) => ({
      path: "/api/auth/vipps/callback",
      method: "POST",
      json: { state: "s".repeat(43), code: "c".repeat(40) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  { route: "GET /api/auth/vipps/link", variant: "no waiting link", request: () => ({ path: "/api/auth/vipps/link" }), expected: all(400) },
  {
    route: "POST /api/auth/vipps/link",
    variant: "no waiting link",
    request: (w) => ({ path: "/api/auth/vipps/link", method: "POST", json: { password: PASSWORD }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/vipps/link/mail",
    variant: "no waiting link",
    request: (w) => ({ path: "/api/auth/vipps/link/mail", method: "POST", headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/vipps/link/confirm",
    variant: "unknown code",
    request: (w) => ({
      path: "/api/auth/vipps/link/confirm",
      method: "POST",
      json: { code: "a".repeat(43) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  // The plain forms of /auth and /auth/glemt-passord (decision 126): a redirect on or back, for anyone.
  {
    route: "POST /api/auth/signin/form",
    request: (w) => ({
      path: "/api/auth/signin/form",
      method: "POST",
      body: new URLSearchParams({ email: signInUser.email, password: PASSWORD }).toString(),
      headers: { "CF-Connecting-IP": w.ip, "Content-Type": "application/x-www-form-urlencoded" },
    }),
    expected: all(303),
  },
  {
    route: "POST /api/auth/password/forgot/form",
    request: (w) => ({
      path: "/api/auth/password/forgot/form",
      method: "POST",
      body: new URLSearchParams({ email: w.owner.email }).toString(),
      headers: { "CF-Connecting-IP": w.ip, "Content-Type": "application/x-www-form-urlencoded" },
    }),
    expected: all(303),
  },
  // "Glemt passord?" and the links of account mails (decision 125): open to anyone; a link is its own key.
  {
    route: "POST /api/auth/password/forgot",
    request: (w) => ({
      path: "/api/auth/password/forgot",
      method: "POST",
      json: { email: w.owner.email },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },
  ...(["/api/auth/password/reset/check", "/api/auth/email/confirm", "/api/auth/email/stop"] as const).map(
    (path): Row => ({
      route: `POST ${path}`,
      variant: "unknown link",
      request: (w) => ({ path, method: "POST", json: { token: "a".repeat(43) }, headers: { "CF-Connecting-IP": w.ip } }),
      expected: all(400),
    }),
  ),
  {
    route: "POST /api/auth/password/reset",
    variant: "unknown link",
    request: (w) => ({
      path: "/api/auth/password/reset",
      method: "POST",
      json: { token: "a".repeat(43), password: "nyttpassord", password_confirm: "nyttpassord" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/newsletter",
    request: (w) => ({
      path: "/api/newsletter",
      method: "POST",
      json: { email: `nyhet-${crypto.randomUUID()}@test.no` },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },
  {
    route: "POST /api/contact",
    request: (w) => ({
      path: "/api/contact",
      method: "POST",
      json: { name: "Kari", email: "kari@test.no", subject: "Spørsmål", message: "Hei, jeg lurer på noe om en annonse." },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },
];
