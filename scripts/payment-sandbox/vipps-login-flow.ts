// The browser's side of the sandbox's Vipps Login: the authorize endpoint (its checks answered to
// the redirect URI as OpenID Connect asks, or on a page when the client or the redirect URI is
// wrong) and the login page where a person picks a test person (or types one) and approves, which
// sends the browser back with an authorization code.
import { randomUUID } from "node:crypto";
import { html, type Reply, type SandboxRequest } from "./http";
import { token, unixNow } from "./ids";
import { messagePage } from "./pages";
import { TEST_PERSONS, vippsLoginPage, type CustomPersonForm, type LoginPageView, type TestPerson } from "./vipps-login-pages";
import { subFor, type IdTokenTamper } from "./vipps-login-tokens";

export const SCOPES_SUPPORTED = ["openid", "address", "name", "email", "phoneNumber", "nin", "birthDate", "api_version_2"];
const REQUEST_LIFETIME_S = 10 * 60;

export interface VippsLoginOptions {
  clientId: string;
  clientSecret: string;
  /** Where the app reaches the API (the issuer's base): http://127.0.0.1:<port>. */
  apiUrl: string;
  /** Where the browser reaches the sandbox (the authorize endpoint and the login page). */
  publicUrl: string;
  /** Redirect URIs registered for the sales unit; without a list, any absolute http(s) URI is accepted. */
  redirectUris?: string[];
  merchant?: string;
}

export interface LoginRequest {
  id: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | "plain" | null;
  createdAt: number;
}

/** Who signed in: a test person, with the `sub` Vipps gives this sales unit for them. */
export type LoginPerson = Omit<TestPerson, "id"> & { sub: string };

export interface AuthCode {
  code: string;
  request: LoginRequest;
  person: LoginPerson;
  sid: string;
  authTime: number;
  usedAt: number | null;
  accessToken: string | null;
  idToken: string | null;
  tamper: IdTokenTamper | null;
}

export function authorize(options: VippsLoginOptions, loginRequests: Map<string, LoginRequest>, req: SandboxRequest): Reply {
  const q = req.url.searchParams;
  if (q.get("client_id") !== options.clientId)
    return html(400, messagePage("Innloggingen kan ikke starte", "invalid_client: Klienten er ukjent."));
  const redirectUri = q.get("redirect_uri") ?? "";
  if (!redirectUriAllowed(options, redirectUri))
    return html(400, messagePage("Innloggingen kan ikke starte", "invalid_request: redirect_uri er ikke registrert for salgsstedet."));
  const state = q.get("state") ?? "";
  const back = (error: string, description: string) => redirectWith(redirectUri, { error, error_description: description, state });
  if (q.get("response_type") !== "code")
    return back("unsupported_response_type", "The authorization server does not support obtaining a token using this method.");
  if (state.length < 8)
    return back("invalid_state", "Request parameter 'state' must be at least be 8 characters long to ensure sufficient entropy.");
  const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
  if (!scopes.includes("openid") || scopes.some((s) => !SCOPES_SUPPORTED.includes(s)))
    return back("invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  const nonce = q.get("nonce");
  if (nonce !== null && nonce.length < 8)
    return back("invalid_request", "Parameter 'nonce' is set but does not satisfy the minimum entropy of 8 characters.");
  const codeChallenge = q.get("code_challenge");
  const method = q.get("code_challenge_method");
  if (method !== null && method !== "S256" && method !== "plain")
    return back("invalid_request", "The code_challenge_method is not supported, use S256 instead.");
  if (method !== null && !codeChallenge) return back("invalid_request", "The code_challenge is missing.");
  const request: LoginRequest = {
    id: token(24),
    redirectUri,
    scopes,
    state,
    nonce,
    codeChallenge,
    codeChallengeMethod: codeChallenge ? ((method as "S256" | "plain" | null) ?? "plain") : null,
    createdAt: unixNow(),
  };
  loginRequests.set(request.id, request);
  return {
    status: 302,
    headers: { Location: `${options.publicUrl}/vipps/login?request=${request.id}`, "Cache-Control": "no-store" },
    body: "",
  };
}

function redirectUriAllowed(options: VippsLoginOptions, uri: string): boolean {
  if (options.redirectUris) return options.redirectUris.includes(uri);
  try {
    const url = new URL(uri);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.hash && !uri.includes("#");
  } catch {
    return false;
  }
}

export function loginPage(
  options: VippsLoginOptions,
  loginRequests: Map<string, LoginRequest>,
  codes: Map<string, AuthCode>,
  req: SandboxRequest,
): Reply {
  const form = req.method === "POST" ? new URLSearchParams(req.body) : req.url.searchParams;
  const request = loginRequests.get(form.get("request") ?? "");
  if (!request || unixNow() - request.createdAt > REQUEST_LIFETIME_S)
    return html(404, messagePage("Innloggingen finnes ikke", "Lenken er ugyldig eller utløpt. Start innloggingen på nytt."));
  const custom: CustomPersonForm = {
    name: form.get("name") ?? "",
    email: form.get("email") ?? "",
    phone: form.get("phone") ?? "",
    emailVerified: req.method === "GET" || form.get("email_verified") === "true",
  };
  const view: LoginPageView = {
    requestId: request.id,
    merchant: options.merchant ?? "Lekebytte",
    shares: shares(request.scopes),
    chosen: form.get("person") ?? TEST_PERSONS[0].id,
    custom,
    errors: {},
  };
  if (req.method === "GET") return html(200, vippsLoginPage(view));
  if (req.method !== "POST") return html(405, messagePage("Ikke tillatt", "Bruk skjemaet."));
  loginRequests.delete(request.id);
  if (form.get("action") !== "approve")
    return redirectWith(request.redirectUri, {
      error: "access_denied",
      error_description: "user cancelled the login",
      state: request.state,
    });
  const person = personFrom(options, view, custom);
  if ("errors" in person) {
    loginRequests.set(request.id, request);
    return html(400, vippsLoginPage({ ...view, errors: person.errors }));
  }
  const code: AuthCode = {
    code: `${token(32)}.${token(32)}`,
    request,
    person,
    sid: randomUUID(),
    authTime: unixNow(),
    usedAt: null,
    accessToken: null,
    idToken: null,
    tamper: null,
  };
  codes.set(code.code, code);
  return redirectWith(request.redirectUri, { code: code.code, state: request.state, scope: request.scopes.join(" ") });
}

function personFrom(
  options: VippsLoginOptions,
  view: LoginPageView,
  custom: CustomPersonForm,
): LoginPerson | { errors: LoginPageView["errors"] } {
  const preset = TEST_PERSONS.find((p) => p.id === view.chosen);
  if (preset) return { ...preset, sub: subFor(options.clientId, preset.phone) };
  if (view.chosen !== "custom") return { errors: { person: "Velg en testperson." } };
  const errors: LoginPageView["errors"] = {};
  const name = custom.name.trim().replace(/\s+/g, " ");
  const email = custom.email.trim().toLowerCase();
  const digits = custom.phone.replace(/[\s-]/g, "").replace(/^(\+47|0047)/, "");
  if (name.length < 2) errors.name = "Skriv inn navnet (minst 2 tegn).";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = "Skriv inn en gyldig e-postadresse.";
  if (!/^[49]\d{7}$/.test(digits)) errors.phone = "Skriv inn et norsk mobilnummer med 8 siffer.";
  if (Object.keys(errors).length) return { errors };
  const phone = `47${digits}`;
  const [givenName, ...rest] = name.split(" ");
  return {
    sub: subFor(options.clientId, phone),
    name,
    givenName,
    familyName: rest.join(" "),
    email,
    emailVerified: custom.emailVerified,
    phone,
  };
}

function shares(scopes: string[]): string[] {
  const words: Record<string, string> = {
    name: "navnet ditt",
    email: "e-postadressen din",
    phoneNumber: "telefonnummeret ditt",
    address: "adressen din",
    birthDate: "fødselsdatoen din",
  };
  const out = scopes.map((s) => words[s]).filter((w): w is string => !!w);
  return out.length ? out : ["hvem du er"];
}

function redirectWith(uri: string, params: Record<string, string>): Reply {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { status: 302, headers: { Location: url.toString(), "Cache-Control": "no-store" }, body: "" };
}
