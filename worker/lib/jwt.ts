import { SignJWT, jwtVerify } from "jose";
import type { Bindings } from "../env";
import { isLocal } from "../env";

export const ACCESS_TTL_SECONDS = 15 * 60;
const ISSUER = "lekebytte";
const AUDIENCE = "lekebytte-web";
const TOKEN_TYPE = "access";
// Used only in local mode when .dev.vars is missing; production refuses to run without a secret.
const LOCAL_FALLBACK_SECRET = "local-development-only-secret-not-for-production-use-0123456789";

export const JWT_SECRET_MIN_LENGTH = 32;

/**
 * The JWT_SECRET committed in .dev.vars.example (and the built-in local fallback): public, so
 * anyone could sign tokens with them. A test keeps this list equal to the example file.
 */
export const PUBLIC_JWT_SECRETS: readonly string[] = [
  "dev-only-lekebytte-9UvAtLuQh-dPaFYW3S4ddvBGGR18KrbF2Ty4HUE11DM9ka0Z-not-a-secret",
  LOCAL_FALLBACK_SECRET,
];

/** Outside local mode the Worker refuses to serve without a proper secret (worker/middleware/config.ts). */
export function hasSigningSecret(env: Bindings): boolean {
  const secret = env.JWT_SECRET ?? "";
  return secret.length >= JWT_SECRET_MIN_LENGTH && !PUBLIC_JWT_SECRETS.includes(secret);
}

function secretKey(env: Bindings): Uint8Array {
  const secret = env.JWT_SECRET || (isLocal(env) ? LOCAL_FALLBACK_SECRET : "");
  if (secret.length < JWT_SECRET_MIN_LENGTH) throw new Error("JWT_SECRET is missing or shorter than 32 characters");
  return new TextEncoder().encode(secret);
}

/**
 * The refresh token that succeeds `token`: HMAC-SHA256 under the server secret (with its own
 * label, so it never doubles as a JWT signature). Deterministic, so a repeat of `token` within the
 * grace can be handed the successor already issued without any token being stored in the clear.
 */
export async function refreshSuccessorToken(env: Bindings, token: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretKey(env), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`lekebytte/refresh-successor/v1\0${token}`));
  return btoa(String.fromCharCode(...new Uint8Array(mac)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * An HMAC-SHA256 key under the server secret, for links the server signs (the saved-search
 * unsubscribe link). Every use puts its own label in front of what it signs, so a signature made
 * for one purpose never verifies for another.
 */
export function serverHmacKey(env: Bindings): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secretKey(env), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export interface AccessClaims {
  userId: string;
  family: string;
  expiresAt: number; // epoch seconds
}

/** `ttlSeconds` other than the default only from tests (a token about to expire). */
export async function signAccessToken(
  env: Bindings,
  userId: string,
  family: string,
  ttlSeconds = ACCESS_TTL_SECONDS,
): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = Math.floor(Date.now() / 1000) + ttlSeconds;
  // The token type is a claim, so a token minted for another purpose cannot stand in for access.
  const token = await new SignJWT({ sid: family, token_type: TOKEN_TYPE })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .setJti(crypto.randomUUID())
    .setNotBefore("0s")
    .sign(secretKey(env));
  return { token, expiresAt };
}

/** Verify an access token: algorithm pinned to HS256, issuer, audience and expiry checked. */
export async function verifyAccessToken(env: Bindings, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(env), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "exp", "sid"],
    });
    if (payload.token_type !== TOKEN_TYPE) return null;
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.exp !== "number") return null;
    return { userId: payload.sub, family: payload.sid, expiresAt: payload.exp };
  } catch {
    return null;
  }
}
