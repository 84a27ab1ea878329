// The sandbox's Vipps Login issuer: discovery, keys, the authorize endpoint and login page, the token
// endpoint (client_secret_basic, PKCE, one use per code) and userinfo, answered as the Login API's
// documentation describes, with ID tokens a standard OIDC library accepts against the published keys.
import { createHash, randomBytes } from "node:crypto";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentSandbox } from "../../scripts/payment-sandbox/server";
import { subFor } from "../../scripts/payment-sandbox/vipps-login-api";
import { form, KEYS, sandbox, vippsConfig } from "./helpers";

const REDIRECT = "https://lekebytte.example/auth/vipps";
const BASE = "/access-management-1.0/access";
let sb: PaymentSandbox;

beforeAll(async () => {
  sb = await sandbox({ vipps: vippsConfig({ loginRedirectUris: [REDIRECT] }) });
});

afterAll(() => sb.close());

const basic = (id = KEYS.clientId, secret = KEYS.clientSecret) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

function newFlow(): Flow {
  return {
    state: randomBytes(16).toString("base64url"),
    nonce: randomBytes(16).toString("base64url"),
    verifier: randomBytes(32).toString("base64url"),
  };
}

function authorizeUrl(flow: Flow, overrides: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    client_id: KEYS.clientId,
    response_type: "code",
    scope: "openid name email phoneNumber",
    state: flow.state,
    nonce: flow.nonce,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(flow.verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...overrides,
  };
  const url = new URL(`${sb.url}${BASE}/oauth2/auth`);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/** Through the authorize endpoint and the login page; the redirect back to the app. */
async function login(flow: Flow, person: Record<string, string> = { person: "vilde" }): Promise<URL> {
  const started = await fetch(authorizeUrl(flow), { redirect: "manual" });
  expect(started.status).toBe(302);
  const page = new URL(started.headers.get("location")!);
  expect(page.pathname).toBe("/vipps/login");
  const done = await fetch(`${sb.url}/vipps/login`, form({ request: page.searchParams.get("request")!, action: "approve", ...person }));
  expect(done.status).toBe(302);
  return new URL(done.headers.get("location")!);
}

function exchange(
  code: string,
  verifier: string | null,
  init: { auth?: string; redirectUri?: string; extra?: Record<string, string> } = {},
) {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: init.redirectUri ?? REDIRECT, ...init.extra });
  if (verifier !== null) body.set("code_verifier", verifier);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (init.auth !== "") headers.Authorization = init.auth ?? basic();
  return fetch(`${sb.url}${BASE}/oauth2/token`, { method: "POST", headers, body });
}

describe("discovery and keys", () => {
  it("publishes the OpenID configuration at the Login API's path, cached for an hour", async () => {
    const res = await fetch(`${sb.url}${BASE}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("max-age=3600");
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: `${sb.url}${BASE}/`,
      token_endpoint: `${sb.url}${BASE}/oauth2/token`,
      jwks_uri: `${sb.url}${BASE}/.well-known/jwks.json`,
      userinfo_endpoint: `${sb.url}/vipps-userinfo-api/userinfo`,
      response_types_supported: ["code"],
      id_token_signing_alg_values_supported: ["RS256"],
    });
    expect(doc.authorization_endpoint).toMatch(/\/access-management-1\.0\/access\/oauth2\/auth$/);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(["openid", "name", "email", "phoneNumber"]));
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(["client_secret_basic"]));
  });

  it("publishes one RSA signing key with the Login API's kid shape", async () => {
    const { keys } = (await (await fetch(`${sb.url}${BASE}/.well-known/jwks.json`)).json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ use: "sig", kty: "RSA", alg: "RS256", e: "AQAB" });
    expect(keys[0].kid).toMatch(/^public:[0-9a-f-]{36}$/);
    expect(keys[0]).not.toHaveProperty("d");
  });
});

describe("authorize", () => {
  it("shows an error page, not a redirect, for an unknown client or an unregistered redirect URI", async () => {
    for (const overrides of [{ client_id: "someone-else" }, { redirect_uri: "https://evil.example/callback" }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(authorizeUrl(newFlow(), overrides), { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it("sends OAuth errors back to the redirect URI with the state", async () => {
    const cases: [Record<string, string | null>, string][] = [
      [{ state: "short" }, "invalid_state"],
      [{ scope: "name email" }, "invalid_scope"],
      [{ scope: "openid shoeSize" }, "invalid_scope"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ nonce: "abc" }, "invalid_request"],
      [{ code_challenge_method: "S512" }, "invalid_request"],
    ];
    for (const [overrides, error] of cases) {
      const res = await fetch(authorizeUrl(newFlow(), overrides), { redirect: "manual" });
      expect(res.status, error).toBe(302);
      const back = new URL(res.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get("error")).toBe(error);
      expect(back.searchParams.get("error_description")).toBeTruthy();
    }
  });

  it("shows the login page with the test persons and what the merchant asks for", async () => {
    const started = await fetch(authorizeUrl(newFlow()), { redirect: "manual" });
    const page = await fetch(started.headers.get("location")!.replace(/^http:\/\/localhost:\d+/, sb.url));
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Logg inn på Lekebytte");
    expect(text).toContain("navnet ditt, e-postadressen din og telefonnummeret ditt");
    expect(text).toContain("Kari Nordmann");
    expect(text).toContain("Egen testperson");
  });

  it("'Avbryt' goes back with access_denied and the state", async () => {
    const flow = newFlow();
    const started = await fetch(authorizeUrl(flow), { redirect: "manual" });
    const request = new URL(started.headers.get("location")!).searchParams.get("request")!;
    const res = await fetch(`${sb.url}/vipps/login`, form({ request, action: "cancel" }));
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(flow.state);
  });

  it("refuses a made-up person with Norwegian messages and keeps the login open", async () => {
    const started = await fetch(authorizeUrl(newFlow()), { redirect: "manual" });
    const request = new URL(started.headers.get("location")!).searchParams.get("request")!;
    const res = await fetch(
      `${sb.url}/vipps/login`,
      form({ request, action: "approve", person: "custom", name: "", email: "nei", phone: "123" }),
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("Skriv inn et norsk mobilnummer med 8 siffer.");
    expect(text).toContain("Skriv inn en gyldig e-postadresse.");
    const again = await fetch(
      `${sb.url}/vipps/login`,
      form({ request, action: "approve", person: "custom", name: "Per Test", email: "per@example.test", phone: "912 00 000" }),
    );
    expect(again.status).toBe(302);
  });
});

describe("token and userinfo", () => {
  it("exchanges the code (Basic auth, PKCE S256) for an ID token a standard library verifies against the keys", async () => {
    const flow = newFlow();
    const back = await login(flow);
    expect(back.searchParams.get("state")).toBe(flow.state);
    expect(back.searchParams.get("scope")).toBe("openid name email phoneNumber");
    const res = await exchange(back.searchParams.get("code")!, flow.verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { access_token: string; id_token: string; expires_in: number; token_type: string; scope: string };
    expect(body).toMatchObject({ token_type: "bearer", expires_in: 3599, scope: "openid name email phoneNumber" });

    const jwks = createLocalJWKSet(sb.vippsLogin.jwks() as Parameters<typeof createLocalJWKSet>[0]);
    const { payload, protectedHeader } = await jwtVerify(body.id_token, jwks, {
      issuer: `${sb.url}${BASE}/`,
      audience: KEYS.clientId,
      algorithms: ["RS256"],
    });
    expect(protectedHeader).toMatchObject({ alg: "RS256", typ: "JWT" });
    expect(payload.nonce).toBe(flow.nonce);
    expect(payload.sub).toBe(subFor(KEYS.clientId, "4791234567"));
    expect(payload.at_hash).toBe(createHash("sha256").update(body.access_token).digest().subarray(0, 16).toString("base64url"));

    const info = await fetch(`${sb.url}/vipps-userinfo-api/userinfo/`, { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      sub: payload.sub,
      name: "Vilde Vippsen",
      given_name: "Vilde",
      family_name: "Vippsen",
      email: "vilde.vippsen@example.test",
      email_verified: true,
      phone_number: "4791234567",
    });
  });

  it("gives a person the same sub at every login, and another phone number another sub", async () => {
    const subOf = async (person: Record<string, string>) => {
      const flow = newFlow();
      const back = await login(flow, person);
      const { access_token } = (await (await exchange(back.searchParams.get("code")!, flow.verifier)).json()) as { access_token: string };
      return (
        (await (await fetch(`${sb.url}/vipps-userinfo-api/userinfo`, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as {
          sub: string;
        }
      ).sub;
    };
    const custom = { person: "custom", name: "Siv Sandkasse", email: "siv@example.test", phone: "+47 900 11 222", email_verified: "true" };
    const first = await subOf(custom);
    expect(await subOf(custom)).toBe(first);
    expect(await subOf({ ...custom, phone: "900 11 223" })).not.toBe(first);
  });

  it("tells userinfo only what the scopes asked for, and email_verified as the person has it", async () => {
    const flow = newFlow();
    const started = await fetch(authorizeUrl(flow, { scope: "openid email" }), { redirect: "manual" });
    const request = new URL(started.headers.get("location")!).searchParams.get("request")!;
    const done = await fetch(`${sb.url}/vipps/login`, form({ request, action: "approve", person: "ulrik" }));
    const code = new URL(done.headers.get("location")!).searchParams.get("code")!;
    const { access_token } = (await (await exchange(code, flow.verifier)).json()) as { access_token: string };
    const info = (await (
      await fetch(`${sb.url}/vipps-userinfo-api/userinfo/`, { headers: { Authorization: `Bearer ${access_token}` } })
    ).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ email: "ola@lekebytte.test", email_verified: false });
    expect(info).not.toHaveProperty("name");
    expect(info).not.toHaveProperty("phone_number");
  });

  it("refuses a wrong, missing or malformed PKCE verifier with invalid_grant, and the code stays unused", async () => {
    const flow = newFlow();
    const code = (await login(flow)).searchParams.get("code")!;
    for (const verifier of [randomBytes(32).toString("base64url"), null, "too-short"]) {
      const res = await exchange(code, verifier);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe("invalid_grant");
      expect(body.error_description).toMatch(/PKCE/);
    }
    expect((await exchange(code, flow.verifier)).status).toBe(200);
  });

  it("takes the client's credentials only as HTTP Basic (client_secret_basic)", async () => {
    const flow = newFlow();
    const code = (await login(flow)).searchParams.get("code")!;
    const wrongSecret = await exchange(code, flow.verifier, { auth: basic(KEYS.clientId, "wrong") });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await wrongSecret.json()).toMatchObject({ error: "invalid_client" });
    const inBody = await exchange(code, flow.verifier, { auth: "", extra: { client_id: KEYS.clientId, client_secret: KEYS.clientSecret } });
    expect(inBody.status).toBe(401);
    expect((await exchange(code, flow.verifier)).status).toBe(200);
  });

  it("refuses another redirect URI, another grant type and an unknown code", async () => {
    const flow = newFlow();
    const code = (await login(flow)).searchParams.get("code")!;
    expect(await (await exchange(code, flow.verifier, { redirectUri: "https://lekebytte.example/other" })).json()).toMatchObject({
      error: "invalid_grant",
    });
    expect(await (await exchange(code, flow.verifier, { extra: { grant_type: "client_credentials" } })).json()).toMatchObject({
      error: "unsupported_grant_type",
    });
    expect(await (await exchange("no-such-code", flow.verifier)).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code used twice and revokes the access token it gave", async () => {
    const flow = newFlow();
    const code = (await login(flow)).searchParams.get("code")!;
    const first = (await (await exchange(code, flow.verifier)).json()) as { access_token: string };
    const again = await exchange(code, flow.verifier);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error_description: string }).error_description).toMatch(/already been used/);
    const info = await fetch(`${sb.url}/vipps-userinfo-api/userinfo/`, { headers: { Authorization: `Bearer ${first.access_token}` } });
    expect(info.status).toBe(401);
    expect(await info.json()).toMatchObject({ title: "Unauthorized", status: "401" });
  });

  it("answers userinfo without a valid bearer token with 401", async () => {
    for (const headers of [{}, { Authorization: "Bearer nope" }] as Record<string, string>[]) {
      const res = await fetch(`${sb.url}/vipps-userinfo-api/userinfo/`, { headers });
      expect(res.status).toBe(401);
    }
  });

  it("lets a test forge the next ID token of a code, which the published keys do not verify", async () => {
    const flow = newFlow();
    const code = (await login(flow)).searchParams.get("code")!;
    const forged = await fetch(`${sb.url}/__sandbox/vipps-login/codes/${encodeURIComponent(code)}/id-token`, {
      method: "POST",
      body: JSON.stringify({ signing: "other-key" }),
    });
    expect(forged.status).toBe(200);
    const { id_token } = (await (await exchange(code, flow.verifier)).json()) as { id_token: string };
    const jwks = createLocalJWKSet(sb.vippsLogin.jwks() as Parameters<typeof createLocalJWKSet>[0]);
    await expect(jwtVerify(id_token, jwks, { issuer: `${sb.url}${BASE}/`, audience: KEYS.clientId })).rejects.toThrow(/signature/);
  });
});
