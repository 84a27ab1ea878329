// The OpenID Connect client for Vipps MobilePay Login, as its documentation asks (vipps-login-api,
// api-guide/integration.md): the endpoints come from the discovery document (cached, since it
// rarely changes), the browser goes to the authorize endpoint with `state`, `nonce` and a PKCE S256
// challenge, the code is exchanged at the token endpoint with client_secret_basic (a sales unit's
// default), the ID token is verified against the published keys with `jose` (RS256 only; issuer,
// audience, expiry and the nonce this login made), and the name, e-mail and phone come from userinfo.
// Only the base URL differs between Vipps and the local sandbox (docs/decisions/032, 128).
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { VIPPS_LOGIN_SCOPES } from "../../../domain/vipps-login";
import type { Bindings } from "../../env";
import { configuredBaseUrl } from "../../lib/base-url";

export interface VippsLoginConfig {
  /** The issuer the ID tokens must name: `{VIPPS_API_BASE}/access-management-1.0/access/`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Null unless the sales unit's client id and secret are set (the same keys as the ePayment API's). */
export function vippsLoginConfig(env: Bindings): VippsLoginConfig | null {
  if (!env.VIPPS_CLIENT_ID || !env.VIPPS_CLIENT_SECRET) return null;
  const base = configuredBaseUrl(env, "VIPPS_API_BASE", env.VIPPS_API_BASE || "https://api.vipps.no");
  return {
    issuer: `${base.origin}${base.pathname.replace(/\/$/, "")}/access-management-1.0/access/`,
    clientId: env.VIPPS_CLIENT_ID,
    clientSecret: env.VIPPS_CLIENT_SECRET,
  };
}

/** Why a login could not be completed with Vipps (logged; the person gets one Norwegian message). */
export class VippsLoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VippsLoginError";
  }
}

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url(),
});
export type Discovery = z.infer<typeof discoverySchema>;

const tokenSchema = z.object({ access_token: z.string().min(1), id_token: z.string().min(1) });

/** What userinfo tells about the person, for the scopes asked (OIDC standard claims). */
const userinfoSchema = z.object({
  sub: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  phone_number: z.string().optional(),
});
export type VippsUserinfo = z.infer<typeof userinfoSchema>;

const SYSTEM_HEADERS = { "Vipps-System-Name": "lekebytte", "Vipps-System-Version": "1.0.0" };
/** The discovery document answers with max-age=3600. */
const DISCOVERY_TTL_MS = 3600_000;
/** Clock skew allowed on `exp` and `iat` (seconds). */
const CLOCK_TOLERANCE_S = 60;

const discoveries = new Map<string, { doc: Discovery; fetchedAt: number }>();
const keySets = new Map<string, JWTVerifyGetKey>();

export async function discover(config: VippsLoginConfig): Promise<Discovery> {
  const cached = discoveries.get(config.issuer);
  if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached.doc;
  const res = await fetch(`${config.issuer}.well-known/openid-configuration`, {
    headers: { Accept: "application/json", ...SYSTEM_HEADERS },
  });
  if (!res.ok) throw new VippsLoginError(`discovery answered ${res.status}`);
  const parsed = discoverySchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new VippsLoginError("discovery document without the endpoints");
  // OpenID Connect Discovery 1.0, 4.3: the issuer in the document is the one it was fetched for.
  if (parsed.data.issuer !== config.issuer) throw new VippsLoginError(`discovery names issuer ${parsed.data.issuer}`);
  discoveries.set(config.issuer, { doc: parsed.data, fetchedAt: Date.now() });
  return parsed.data;
}

/** Where the browser goes to log in with Vipps. */
export function authorizeUrl(
  doc: Discovery,
  config: VippsLoginConfig,
  params: { redirectUri: string; state: string; nonce: string; codeChallenge: string },
): string {
  const url = new URL(doc.authorization_endpoint);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", VIPPS_LOGIN_SCOPES);
  url.searchParams.set("state", params.state);
  url.searchParams.set("nonce", params.nonce);
  url.searchParams.set("redirect_uri", params.redirectUri);
  url.searchParams.set("code_challenge", params.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

/** The PKCE S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The token endpoint: the code (with its PKCE verifier) for an access token and an ID token. */
export async function exchangeCode(
  doc: Discovery,
  config: VippsLoginConfig,
  params: { code: string; redirectUri: string; codeVerifier: string },
): Promise<{ accessToken: string; idToken: string }> {
  // RFC 6749 2.3.1: the id and secret are form-encoded before they are joined for Basic.
  const basic = btoa(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`);
  const res = await fetch(doc.token_endpoint, {
    method: "POST",
    headers: {
      Authorization: `Basic ${basic}`,
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
      ...SYSTEM_HEADERS,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: params.code,
      redirect_uri: params.redirectUri,
      code_verifier: params.codeVerifier,
    }),
  });
  const body = (await res.json().catch(() => null)) as { error?: string; error_description?: string } | null;
  if (!res.ok) throw new VippsLoginError(`token endpoint answered ${res.status} ${body?.error ?? ""}: ${body?.error_description ?? ""}`);
  const parsed = tokenSchema.safeParse(body);
  if (!parsed.success) throw new VippsLoginError("token answer without access_token and id_token");
  return { accessToken: parsed.data.access_token, idToken: parsed.data.id_token };
}

/**
 * The ID token's `sub`, once its signature (RS256, a key of the issuer's JWKS), issuer, audience,
 * expiry and nonce hold (OpenID Connect Core 1.0, 3.1.3.7). Anything else throws.
 */
export async function verifyIdToken(doc: Discovery, config: VippsLoginConfig, idToken: string, nonce: string): Promise<string> {
  let keys = keySets.get(doc.jwks_uri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(doc.jwks_uri), { headers: SYSTEM_HEADERS });
    keySets.set(doc.jwks_uri, keys);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: config.issuer,
      audience: config.clientId,
      // Never the token's own choice: an "alg": "none" or HS256 token is refused before any key is used.
      algorithms: ["RS256"],
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (error) {
    throw new VippsLoginError(`ID token refused: ${error instanceof Error ? `${error.name} ${error.message}` : String(error)}`);
  }
  const aud = payload.aud;
  // With several audiences, the token must be meant for this client (azp).
  if (Array.isArray(aud) && aud.length > 1 && payload.azp !== config.clientId) throw new VippsLoginError("ID token for several audiences");
  if (typeof payload.nonce !== "string" || !(await sameText(payload.nonce, nonce))) throw new VippsLoginError("ID token nonce differs");
  if (typeof payload.sub !== "string" || !payload.sub) throw new VippsLoginError("ID token without sub");
  return payload.sub;
}

/** Compares by their SHA-256, so the time taken says nothing about where two texts differ. */
async function sameText(a: string, b: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  return x.every((byte, i) => byte === y[i]);
}

/** The person's name, e-mail and phone; its `sub` must be the ID token's (OpenID Connect Core 1.0, 5.3.2). */
export async function fetchUserinfo(doc: Discovery, accessToken: string, sub: string): Promise<VippsUserinfo> {
  const res = await fetch(doc.userinfo_endpoint, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json", ...SYSTEM_HEADERS },
  });
  if (!res.ok) throw new VippsLoginError(`userinfo answered ${res.status}`);
  const parsed = userinfoSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new VippsLoginError("userinfo answer without sub");
  if (parsed.data.sub !== sub) throw new VippsLoginError("userinfo is about another sub");
  return parsed.data;
}
