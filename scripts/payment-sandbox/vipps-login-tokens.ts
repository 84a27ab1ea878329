// The token side of the sandbox's Vipps Login: subjects, PKCE, signed ID tokens (and the forged ones
// a test may ask for), and the token endpoint's error answers.
import { createHash, createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { json, type Reply } from "./http";

/** RFC 7636: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

export const INVALID_GRANT =
  "The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.";

/** How the token endpoint should spoil the next ID token of a code (sandbox-only, for tests). */
export interface IdTokenTamper {
  /** "other-key": RS256 with a key the JWKS does not hold (same kid); "none": unsigned; "hs256-public-key": HMAC with the public key as secret. */
  signing?: "other-key" | "none" | "hs256-public-key";
  /** Claims to set or replace (iss, aud, exp, nonce, …). */
  claims?: Record<string, unknown>;
  /** Answer with the ID token an earlier code was answered with, unchanged. */
  replayOf?: string;
}

/** A person's `sub`: a UUID of its own per sales unit (client) and phone number, the same at every login. */
export function subFor(clientId: string, phone: string): string {
  const h = createHash("sha256").update(`vipps-sandbox-sub\0${clientId}\0${phone}`).digest("hex");
  const variant = (8 | (Number.parseInt(h[16], 16) & 3)).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What is wrong with the code verifier, or null when it proves the challenge (or there was none). */
export function pkceProblem(challenge: string | null, method: "S256" | "plain" | null, verifier: string | null): string | null {
  if (!challenge) return null;
  if (!verifier) return "The PKCE code verifier must be set because a code challenge was provided in the authorize request.";
  if (!VERIFIER_RE.test(verifier)) return "The PKCE code verifier must be between 43 and 128 characters long.";
  const computed = method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
  return computed === challenge ? null : "The PKCE code challenge did not match the code verifier.";
}

/** OIDC's at_hash: the left half of the access token's SHA-256, base64url. */
export function atHash(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
}

const b64url = (value: string) => Buffer.from(value).toString("base64url");

/** The issuer's signing key (made at start, never stored) and the JWTs it signs. */
export class IdTokenSigner {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  readonly kid = `public:${randomUUID()}`;
  private otherKey: KeyObject | null = null;

  constructor() {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 }));
  }

  /** The public half, as the JWKS lists it. */
  jwk(): object {
    const { n, e } = this.publicKey.export({ format: "jwk" });
    return { use: "sig", kty: "RSA", kid: this.kid, alg: "RS256", n, e };
  }

  sign(claims: Record<string, unknown>, signing: IdTokenTamper["signing"]): string {
    const encode = (head: object) => `${b64url(JSON.stringify(head))}.${b64url(JSON.stringify(claims))}`;
    if (signing === "none") return `${encode({ alg: "none", typ: "JWT" })}.`;
    if (signing === "hs256-public-key") {
      // The classic confusion: a verifier that takes the algorithm from the token would use the
      // published public key as an HMAC secret.
      const input = encode({ alg: "HS256", kid: this.kid, typ: "JWT" });
      const secret = this.publicKey.export({ format: "pem", type: "spki" });
      return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
    }
    const input = encode({ alg: "RS256", kid: this.kid, typ: "JWT" });
    let key = this.privateKey;
    if (signing === "other-key") key = this.otherKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
  }
}

/** The token endpoint's errors: RFC 6749's `error` and `error_description`, and the status as `error_code`. */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Reply {
  return json(status, { error, error_description: description, error_code: status }, { "Cache-Control": "no-store", ...headers });
}

export function clientError(): Reply {
  return oauthError(
    401,
    "invalid_client",
    "Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).",
    { "WWW-Authenticate": 'Basic realm="vipps-login"' },
  );
}
