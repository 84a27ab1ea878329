// What every response builder shares (tests/factories/api.ts gathers them): the Worker's client
// type the bodies' types come from, the fixed ids of the test's people and things, and the bodies
// of the session, the site's config, the profile and the one error envelope.
import type { hc, InferResponseType } from "hono/client";
import type { ApiErrorBody, ErrorCode } from "../../domain/errors";
import type { AppType } from "../../worker/app";

export type Api = ReturnType<typeof hc<AppType>>;

export type SessionBody = NonNullable<InferResponseType<Api["auth"]["session"]["$get"], 200>>;
export type SiteConfigBody = InferResponseType<Api["config"]["$get"], 200>;
export type ProfileBody = InferResponseType<Api["me"]["$get"], 200>;

export const TEST_USER_ID = "11111111-1111-4111-8111-111111111111";
export const TEST_SELLER_ID = "22222222-2222-4222-8222-222222222222";
export const TEST_CONVERSATION_ID = "c0c0c0c0-0000-4000-8000-000000000001";
export const TEST_LISTING_ID = "33333333-3333-4333-8333-333333333333";

/** GET /api/auth/session: the access cookie's expiry is epoch seconds (15 minutes from now). */
export function sessionBody(overrides: { user?: Partial<SessionBody["user"]>; expires_at?: number } = {}): SessionBody {
  return {
    user: { id: TEST_USER_ID, email: "kari@example.no", display_name: "Kari", role: "user", ...overrides.user },
    expires_at: overrides.expires_at ?? Math.floor(Date.now() / 1000) + 15 * 60,
  };
}

/** GET /api/config (the values of wrangler.toml's [vars]). */
export function siteConfigBody(overrides: Partial<SiteConfigBody> = {}): SiteConfigBody {
  return {
    appName: "Lekebytte",
    contactEmail: "hei@lekebytte.no",
    contactPhone: "+47 22 12 34 56",
    contactAddress: "Storgata 1, 0155 Oslo",
    vippsLogin: true,
    ...overrides,
  };
}

/** GET /api/me: the signed-in user's account and profile. */
export function profileBody(overrides: Partial<ProfileBody> = {}): ProfileBody {
  return {
    user_id: TEST_USER_ID,
    email: "kari@example.no",
    display_name: "Kari",
    postal_code: "0155",
    street_address: null,
    role: "user",
    stripe_account_id: null,
    created_at: "2024-03-05T10:00:00.000Z",
    pending_email: null,
    ...overrides,
  };
}

/** The one error envelope of every API error. */
export function errorBody(code: ErrorCode, message: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: { code, message, ...(fields ? { fields } : {}) } };
}
