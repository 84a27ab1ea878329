// Vipps MobilePay Login as its documentation describes it (vippsas/vipps-login-api: docs/swagger.yaml,
// api-guide/integration.md and core-concepts.md; vippsas/userinfo-api docs/swagger.yaml): an OpenID
// Connect provider on the same paths as api.vipps.no. The discovery document and the JSON Web Keys
// under /access-management-1.0/access/.well-known/, the authorize endpoint (which sends the browser
// to the sandbox's login page), the token endpoint (authorization code with PKCE, client_secret_basic,
// the default authentication method of a sales unit) and the userinfo endpoint
// /vipps-userinfo-api/userinfo/. ID tokens are RS256 JWTs signed with a key pair made at start.
//
// Sandbox-only: POST /__sandbox/vipps-login/codes/{code}/id-token makes the token endpoint answer that
// code with a forged or altered ID token, so the app's checks can be tried against the real exchange.
//
// The authorize endpoint and the login page are in vipps-login-flow.ts.
import { randomUUID } from "node:crypto";
import { header, json, type Reply, type SandboxRequest } from "./http";
import { token, unixNow } from "./ids";
import {
  type AuthCode,
  type LoginPerson,
  type LoginRequest,
  SCOPES_SUPPORTED,
  type VippsLoginOptions,
  authorize,
  loginPage,
} from "./vipps-login-flow";
import {
  atHash,
  clientError,
  IdTokenSigner,
  INVALID_GRANT,
  oauthError,
  pkceProblem,
  subFor,
  type IdTokenTamper,
} from "./vipps-login-tokens";

export { subFor, type IdTokenTamper };
export type { LoginPerson, VippsLoginOptions };

const BASE = "/access-management-1.0/access";
const USERINFO_PATH = "/vipps-userinfo-api/userinfo";
/** The authorization code is short-lived ("a couple of minutes"); the access token answers for an hour. */
const CODE_LIFETIME_S = 5 * 60;
const ACCESS_TOKEN_LIFETIME_S = 3599;
const ID_TOKEN_LIFETIME_S = 3600;

interface AccessGrant {
  person: LoginPerson;
  scopes: string[];
  sid: string;
  expiresAt: number;
  revoked: boolean;
}

export class VippsLoginSandbox {
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; at: string }> = [];
  private readonly signer = new IdTokenSigner();
  private readonly loginRequests = new Map<string, LoginRequest>();
  private readonly codes = new Map<string, AuthCode>();
  private readonly grants = new Map<string, AccessGrant>();

  constructor(private readonly options: VippsLoginOptions) {}

  get issuer(): string {
    return `${this.options.apiUrl}${BASE}/`;
  }

  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    let m: RegExpExecArray | null;
    if (path.startsWith(`${BASE}/`) || path.startsWith(USERINFO_PATH))
      this.requests.push({ method: req.method, path, idempotencyKey: null, at: new Date().toISOString() });
    if (req.method === "GET" && path === `${BASE}/.well-known/openid-configuration`) return this.discovery();
    if (req.method === "GET" && path === `${BASE}/.well-known/jwks.json`) return json(200, this.jwks());
    if (req.method === "GET" && path === `${BASE}/oauth2/auth`) return authorize(this.options, this.loginRequests, req);
    if (path === `${BASE}/oauth2/token`)
      return req.method === "POST" ? this.token(req) : oauthError(405, "invalid_request", "The token endpoint takes POST.");
    if (req.method === "GET" && (path === USERINFO_PATH || path === `${USERINFO_PATH}/`)) return this.userinfo(req);
    if (path === "/vipps/login") return loginPage(this.options, this.loginRequests, this.codes, req);
    if (req.method === "POST" && (m = /^\/__sandbox\/vipps-login\/codes\/([^/]+)\/id-token$/.exec(path)))
      return this.tamper(decodeURIComponent(m[1]), req.body);
    return null;
  }

  /** The public half of the signing key, as the JWKS lists it. */
  jwks(): { keys: object[] } {
    return { keys: [this.signer.jwk()] };
  }

  // ---------------------------------------------------------------- discovery

  private discovery(): Reply {
    const api = this.options.apiUrl;
    return json(
      200,
      {
        issuer: this.issuer,
        authorization_endpoint: `${this.options.publicUrl}${BASE}/oauth2/auth`,
        token_endpoint: `${api}${BASE}/oauth2/token`,
        jwks_uri: `${api}${BASE}/.well-known/jwks.json`,
        subject_types_supported: ["public", "pairwise"],
        response_types_supported: ["code"],
        claims_supported: ["sub"],
        grant_types_supported: ["authorization_code"],
        response_modes_supported: ["query"],
        userinfo_endpoint: `${api}${USERINFO_PATH}`,
        scopes_supported: SCOPES_SUPPORTED,
        token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "private_key_jwt", "none"],
        userinfo_signing_alg_values_supported: ["none", "RS256"],
        id_token_signing_alg_values_supported: ["RS256"],
        request_parameter_supported: true,
        request_uri_parameter_supported: true,
        require_request_uri_registration: true,
        claims_parameter_supported: false,
        backchannel_logout_supported: false,
        frontchannel_logout_supported: false,
      },
      { "Cache-Control": "max-age=3600" },
    );
  }

  // ---------------------------------------------------------------- token

  private token(req: SandboxRequest): Reply {
    const form = new URLSearchParams(req.body);
    const basic = /^basic\s+(.+)$/i.exec(header(req, "authorization") ?? "")?.[1];
    // client_secret_basic is the sales unit's method; credentials in the body are another method.
    if (!basic) return clientError();
    const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
    if (decodeURIComponent(id ?? "") !== this.options.clientId || decodeURIComponent(secret ?? "") !== this.options.clientSecret)
      return clientError();
    if (form.get("grant_type") !== "authorization_code")
      return oauthError(400, "unsupported_grant_type", "The authorization grant type is not supported by the authorization server.");
    const code = this.codes.get(form.get("code") ?? "");
    if (!code || unixNow() - code.authTime > CODE_LIFETIME_S) return oauthError(400, "invalid_grant", INVALID_GRANT);
    if (code.usedAt !== null) {
      // RFC 6749 4.1.2: a code used twice revokes what it was exchanged for.
      const grant = code.accessToken ? this.grants.get(code.accessToken) : undefined;
      if (grant) grant.revoked = true;
      return oauthError(400, "invalid_grant", `${INVALID_GRANT} The authorization code has already been used.`);
    }
    if (form.get("redirect_uri") !== code.request.redirectUri) return oauthError(400, "invalid_grant", INVALID_GRANT);
    const pkce = pkceProblem(code.request.codeChallenge, code.request.codeChallengeMethod, form.get("code_verifier"));
    if (pkce) return oauthError(400, "invalid_grant", `${INVALID_GRANT} ${pkce}`);

    code.usedAt = unixNow();
    const accessToken = `${token(32)}.${token(32)}`;
    this.grants.set(accessToken, {
      person: code.person,
      scopes: code.request.scopes,
      sid: code.sid,
      expiresAt: unixNow() + ACCESS_TOKEN_LIFETIME_S,
      revoked: false,
    });
    code.accessToken = accessToken;
    code.idToken = this.idToken(code, accessToken);
    return json(
      200,
      {
        access_token: accessToken,
        expires_in: ACCESS_TOKEN_LIFETIME_S,
        id_token: code.idToken,
        scope: code.request.scopes.join(" "),
        token_type: "bearer",
      },
      { "Cache-Control": "no-store", Pragma: "no-cache" },
    );
  }

  private idToken(code: AuthCode, accessToken: string): string {
    const tamper = code.tamper;
    if (tamper?.replayOf) {
      const earlier = this.codes.get(tamper.replayOf)?.idToken;
      if (earlier) return earlier;
    }
    const now = unixNow();
    const claims: Record<string, unknown> = {
      at_hash: atHash(accessToken),
      aud: [this.options.clientId],
      auth_time: code.authTime,
      exp: now + ID_TOKEN_LIFETIME_S,
      iat: now,
      iss: this.issuer,
      jti: randomUUID(),
      nonce: code.request.nonce ?? "",
      rat: code.request.createdAt,
      sid: code.sid,
      sub: code.person.sub,
      ...tamper?.claims,
    };
    return this.signer.sign(claims, tamper?.signing);
  }

  private tamper(code: string, body: string): Reply {
    const found = this.codes.get(code);
    if (!found) return json(404, { error: "no such code" });
    let tamper: IdTokenTamper;
    try {
      tamper = JSON.parse(body || "{}") as IdTokenTamper;
    } catch {
      return json(400, { error: "body must be JSON" });
    }
    found.tamper = tamper;
    return json(200, { code, tamper });
  }

  // ---------------------------------------------------------------- userinfo

  private userinfo(req: SandboxRequest): Reply {
    const bearer = /^bearer\s+(.+)$/i.exec(header(req, "authorization") ?? "")?.[1];
    const grant = bearer ? this.grants.get(bearer) : undefined;
    if (!grant || grant.revoked || grant.expiresAt < unixNow()) {
      return json(401, {
        type: "https://developer.vippsmobilepay.com/docs/APIs/userinfo-api/userinfo-api-guide",
        title: "Unauthorized",
        status: "401",
        detail: "The access token is missing, invalid, expired or revoked.",
        instance: randomUUID(),
      });
    }
    const { person, scopes } = grant;
    return json(200, {
      sub: person.sub,
      sid: grant.sid,
      ...(scopes.includes("name") ? { name: person.name, given_name: person.givenName, family_name: person.familyName } : {}),
      ...(scopes.includes("email") ? { email: person.email, email_verified: person.emailVerified } : {}),
      ...(scopes.includes("phoneNumber") ? { phone_number: person.phone } : {}),
    });
  }
}
