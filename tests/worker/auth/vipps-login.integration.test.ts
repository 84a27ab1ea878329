// "Logg inn med Vipps" against the sandbox's Vipps Login issuer (docs/decisions/128-vipps-login.md):
// a new person's account, the session it gives (as a password sign-in's), and every way a callback
// is refused: a replayed state, an ID token from another login (nonce), forged or wrongly signed ID
// tokens, the wrong issuer or audience, an expired token, a wrong PKCE verifier, a cancelled login.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VIPPS_LOGIN_REFUSALS } from "../../../domain/vipps-login";
import { errorOf } from "../support/http";
import {
  callback,
  countRows,
  loginAtVipps,
  newPerson,
  startVippsLogin,
  stateHashOf,
  tamperIdToken,
  vippsBrowser,
  vippsLogin,
  vippsRows,
} from "../support/vipps-login";

afterEach(() => vi.restoreAllMocks());

interface SignedIn {
  status: "signed_in";
  session: { user: { id: string; email: string; display_name: string | null } };
  next: string | null;
}

describe("a new person", () => {
  it("gets an account with Vipps' name, e-mail and phone, signed in like a password sign-in", async () => {
    const browser = vippsBrowser();
    const person = newPerson({ name: "Vilde  Vippsen" });
    const res = await vippsLogin(browser, person);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as SignedIn;
    expect(body).toMatchObject({ status: "signed_in", session: { user: { email: person.email, display_name: "Vilde Vippsen" } } });
    // The session's cookies and a device cookie (decision 084), as a password sign-in gives.
    expect([...browser.cookies.keys()]).toEqual(expect.arrayContaining(["lb_access", "lb_refresh", "lb_device"]));
    const session = await browser.get("/api/auth/session");
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(body.session.user.id);
    // The refresh token rotates like any other (decision 006).
    expect((await browser.post("/api/auth/refresh")).status).toBe(200);

    const { user, identities } = await vippsRows(body.session.user.id);
    expect(user).toMatchObject({ email: person.email, password_hash: "", phone: `47${person.phone}` });
    expect(user?.phone_verified_at).toBeTruthy();
    expect(user?.email_confirmed_at).toBeTruthy();
    expect(identities).toHaveLength(1);

    // The account has no password: its e-mail and any password are refused like a wrong one.
    const guess = await vippsBrowser().post("/api/auth/signin", { email: person.email, password: "" + "gjett-passord" });
    expect(guess.status).toBe(400);
    expect((await errorOf(guess)).code).toBe("INVALID_CREDENTIALS");
  });

  it("signs straight in to the same account the next time, with the page it started from", async () => {
    const person = newPerson();
    const first = (await (await vippsLogin(vippsBrowser(), person)).json()) as SignedIn;
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser, "/api/auth/vipps/start", { next: "/lagrede-sok" }), person);
    const again = await callback(browser, back);
    expect(again.status).toBe(200);
    const body = (await again.json()) as SignedIn;
    expect(body.session.user.id).toBe(first.session.user.id);
    expect(body.next).toBe("/lagrede-sok");
    expect(await countRows("vipps_identities")).toBeGreaterThanOrEqual(1);
    const { identities } = await vippsRows(first.session.user.id);
    expect(identities).toHaveLength(1);
  });

  it("is refused when Vipps has not verified the e-mail address: no account", async () => {
    const users = await countRows("users");
    const res = await vippsLogin(vippsBrowser(), newPerson({ emailVerified: false }));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(VIPPS_LOGIN_REFUSALS.emailUnverified);
    expect(await countRows("users")).toBe(users);
  });

  it("never follows a return path off the site", async () => {
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser, "/api/auth/vipps/start", { next: "//evil.example/" }), newPerson());
    expect(((await (await callback(browser, back)).json()) as SignedIn).next).toBeNull();
  });
});

/** A refused callback: its status and message, no session cookie, and no account made. */
async function expectRefused(res: Response, status: number, message: string, users: number) {
  expect(res.status, await res.clone().text()).toBe(status);
  expect((await errorOf(res)).message).toBe(message);
  expect(res.headers.getSetCookie().some((c) => c.startsWith("lb_access="))).toBe(false);
  expect(await countRows("users")).toBe(users);
}

describe("the callback's state", () => {
  it("is used once: the same state and code again are refused", async () => {
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser), newPerson());
    expect((await callback(browser, back)).status).toBe(200);
    const users = await countRows("users");
    await expectRefused(await callback(browser, back), 400, VIPPS_LOGIN_REFUSALS.expired, users);
  });

  it("belongs to the browser that started the login", async () => {
    const back = await loginAtVipps(await startVippsLogin(vippsBrowser()), newPerson());
    // Another browser, with a login of its own under way (so a browser cookie of its own).
    const other = vippsBrowser();
    await startVippsLogin(other);
    const users = await countRows("users");
    await expectRefused(await callback(other, back), 400, VIPPS_LOGIN_REFUSALS.expired, users);
    await expectRefused(await callback(vippsBrowser(), back), 400, VIPPS_LOGIN_REFUSALS.expired, users);
  });

  it("must be one the Worker made", async () => {
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser), newPerson());
    const users = await countRows("users");
    await expectRefused(await callback(browser, { ...back, state: `${back.state}x` }), 400, VIPPS_LOGIN_REFUSALS.expired, users);
  });

  it("says so when the person cancelled at Vipps", async () => {
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser), null);
    expect(back.error).toBe("access_denied");
    await expectRefused(await callback(browser, back), 400, VIPPS_LOGIN_REFUSALS.cancelled, await countRows("users"));
  });
});

describe("the ID token", () => {
  /** A login whose token endpoint answer is spoilt as `tamper` says; the callback's answer. */
  async function withTamperedToken(tamper: Parameters<typeof tamperIdToken>[1]) {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const browser = vippsBrowser();
    const back = await loginAtVipps(await startVippsLogin(browser), newPerson());
    await tamperIdToken(back.code ?? "", tamper);
    const users = await countRows("users");
    const res = await callback(browser, back);
    await expectRefused(res, 502, VIPPS_LOGIN_REFUSALS.failed, users);
    return warn.mock.calls.map((call) => call.join(" ")).join("\n");
  }

  it("from an earlier login (its nonce) is refused, though Vipps signed it", async () => {
    const first = vippsBrowser();
    const earlier = await loginAtVipps(await startVippsLogin(first), newPerson());
    expect((await callback(first, earlier)).status).toBe(200);
    expect(await withTamperedToken({ replayOf: earlier.code ?? "" })).toMatch(/nonce/);
  });

  it("with another nonce is refused", async () => {
    expect(await withTamperedToken({ claims: { nonce: "en-helt-annen-nonce-0123456789" } })).toMatch(/nonce/);
  });

  it("signed with a key the issuer does not publish is refused", async () => {
    expect(await withTamperedToken({ signing: "other-key" })).toMatch(/signature/i);
  });

  it("unsigned (alg none) is refused", async () => {
    expect(await withTamperedToken({ signing: "none" })).toMatch(/ID token refused/);
  });

  it("signed HS256 with the issuer's public key as secret is refused", async () => {
    expect(await withTamperedToken({ signing: "hs256-public-key" })).toMatch(/ID token refused/);
  });

  it("from another issuer is refused", async () => {
    expect(await withTamperedToken({ claims: { iss: "https://apitest.vipps.no/access-management-1.0/access/" } })).toMatch(/iss/);
  });

  it("for another client (audience) is refused", async () => {
    expect(await withTamperedToken({ claims: { aud: ["en-annen-klient"] } })).toMatch(/aud/);
  });

  it("that has expired is refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await withTamperedToken({ claims: { iat: now - 7200, exp: now - 3600 } })).toMatch(/exp/);
  });
});

describe("PKCE", () => {
  it("a verifier that does not match the challenge is refused by Vipps (the sandbox), and nothing is made", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const browser = vippsBrowser();
    const authorize = await startVippsLogin(browser);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    // The verifier the Worker will send is no longer the one its challenge was made from.
    await env.DB.prepare("UPDATE vipps_login_states SET code_verifier = ?2 WHERE state_hash = ?1")
      .bind(await stateHashOf(authorize), "x".repeat(64))
      .run();
    const back = await loginAtVipps(authorize, newPerson());
    await expectRefused(await callback(browser, back), 502, VIPPS_LOGIN_REFUSALS.failed, await countRows("users"));
    expect(warn.mock.calls.flat().join(" ")).toMatch(/invalid_grant.*PKCE/);
  });

  it("the authorize request carries state, nonce, the scopes and an S256 challenge", async () => {
    const authorize = await startVippsLogin(vippsBrowser());
    expect(authorize.pathname).toBe("/access-management-1.0/access/oauth2/auth");
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: env.VIPPS_CLIENT_ID,
      response_type: "code",
      scope: "openid name email phoneNumber",
      redirect_uri: `${env.APP_ORIGIN}/auth/vipps`,
      code_challenge_method: "S256",
    });
    expect(authorize.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
