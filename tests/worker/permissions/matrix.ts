// The permission matrix's vocabulary: the roles every row is asked as, the statuses it expects of
// each, and the shape of a row (the request it sends, with ids from its World).
import type { World } from "./world";

export const ROLES = ["visitor", "other", "owner", "moderator", "admin", "suspended"] as const;
export type Role = (typeof ROLES)[number];
export type Expected = Record<Role, number>;

/** Expected statuses in ROLES order: visitor, other, owner, moderator, admin, suspended. */
export const s = (visitor: number, other: number, owner: number, moderator: number, admin: number, suspended: number): Expected => ({
  visitor,
  other,
  owner,
  moderator,
  admin,
  suspended,
});
export const all = (status: number) => s(status, status, status, status, status, status);
/** Signed in: any user 200-ish, visitors 401. */
export const signedIn = (status: number) => s(401, status, status, status, status, status);
/** An object only its owner (or participant) may touch: visitors 401, everyone else 404. */
export const ownerOnly = (status: number, suspended = status) => s(401, 404, status, 404, 404, suspended);
/** Moderator and admin. */
export const staff = (status: number) => s(401, 403, 403, status, status, 403);
export const adminOnly = (status: number) => s(401, 403, 403, 403, status, 403);

export const PASSWORD = "hemmelig123";
export const BUSY = 429;

export interface Req {
  path: string;
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Cookies added to the caller's own (the analytics session /sessions issued). */
  cookies?: Record<string, string>;
  /** Open it as a WebSocket (Upgrade header, our Origin); a 101 socket is closed right away. */
  ws?: boolean;
}

export interface Row {
  /** The route as `app.routes` names it ("METHOD path"), or "PAGE <id>" for a page of the route table. */
  route: string;
  /** Several rows may cover one route (e.g. a public and a hidden listing). */
  variant?: string;
  request: (w: World) => Promise<Req> | Req;
  expected: Expected;
  /** The owner needs a real password (routes that ask for it again). */
  ownerPassword?: boolean;
  /** The owner is a seller with a connected Stripe account. */
  ownerConnected?: boolean;
  /** Console errors this row is known to log (e.g. a provider refusing). */
  allowErrors?: (string | RegExp)[];
}

export const form = (images: string[]) => ({
  title: "Brio togbane med tunnel",
  description: "Pent brukt.",
  category: "lego",
  age_range: "3-5 år",
  condition_rating: 4,
  price: "150",
  is_free: false,
  is_trade_offer: false,
  postal_code: "0150",
  images,
});
