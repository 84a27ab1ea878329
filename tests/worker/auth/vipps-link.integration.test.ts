// A Vipps login whose e-mail is an existing account's (docs/decisions/128-vipps-login.md): never
// signed in to on its own; the person proves the account (its password, or a link mailed to its
// address), then the two are linked and the next Vipps login signs straight in. Also the profile's
// "Koble til Vipps" and "Koble fra Vipps", "Verifisert med Vipps" on the seller card and the public
// profile, and what deleting the account leaves.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WRONG_PASSWORD_MESSAGE } from "../../../domain/schemas/account";
import { VIPPS_LOGIN_REFUSALS } from "../../../domain/vipps-login";
import { createListing, createUser, signedInClient, type TestUser } from "../../factories";
import { errorOf, type Client } from "../support/http";
import {
  callback,
  countRows,
  loginAtVipps,
  newPerson,
  startVippsLogin,
  vippsBrowser,
  vippsLogin,
  vippsRows,
  type VippsPerson,
} from "../support/vipps-login";

const PASSWORD = "hemmelig-passord-1";

/** An account with a password, and a Vipps person with its e-mail. */
async function accountAndPerson(overrides: Partial<VippsPerson> = {}): Promise<{ user: TestUser; person: VippsPerson }> {
  const person = newPerson(overrides);
  const user = await createUser({ email: person.email, password: PASSWORD, displayName: "Kari Konto" });
  return { user, person };
}

/** The Vipps login that matched the account: answered "link_required", the browser holds the request. */
async function matched(person: VippsPerson): Promise<Client> {
  const browser = vippsBrowser();
  const res = await vippsLogin(browser, person);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ status: "link_required", email: person.email });
  return browser;
}

async function userIdOf(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { session: { user: { id: string } } }).session.user.id;
}

describe("a verified e-mail that belongs to an account", () => {
  it("is not signed in to: no session, no link, until the account is proved", async () => {
    const { user, person } = await accountAndPerson();
    const browser = await matched(person);
    expect(browser.cookies.has("lb_access")).toBe(false);
    expect((await vippsRows(user.id)).identities).toEqual([]);
    expect((await browser.get("/api/auth/session")).status).toBe(200);
    expect(await (await browser.get("/api/auth/session")).json()).toBeNull();
    // The waiting request names the account's address; another browser has none.
    expect(await (await browser.get("/api/auth/vipps/link")).json()).toEqual({ email: person.email });
    const stranger = await vippsBrowser().get("/api/auth/vipps/link");
    expect(stranger.status).toBe(400);
    expect((await errorOf(stranger)).message).toBe(VIPPS_LOGIN_REFUSALS.linkExpired);
  });

  it("is linked once the account's password is given, and the next Vipps login signs straight in", async () => {
    const { user, person } = await accountAndPerson();
    const browser = await matched(person);
    const wrong = await browser.post("/api/auth/vipps/link", { password: "ikke-passordet" });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: "INVALID_CREDENTIALS", fields: { password: WRONG_PASSWORD_MESSAGE } });
    expect((await vippsRows(user.id)).identities).toEqual([]);

    const proved = await browser.post("/api/auth/vipps/link", { password: PASSWORD });
    expect(await userIdOf(proved)).toBe(user.id);
    expect([...browser.cookies.keys()]).toEqual(expect.arrayContaining(["lb_access", "lb_refresh", "lb_device"]));
    const rows = await vippsRows(user.id);
    expect(rows.identities).toHaveLength(1);
    expect(rows.user).toMatchObject({ phone: `47${person.phone}` });
    expect(rows.user?.phone_verified_at).toBeTruthy();
    // The request is spent.
    expect((await browser.post("/api/auth/vipps/link", { password: PASSWORD })).status).toBe(400);

    expect(await userIdOf(await vippsLogin(vippsBrowser(), person))).toBe(user.id);
    expect(await countRows("vipps_identities")).toBeGreaterThanOrEqual(1);
  });

  it("is linked through the link mailed to the account's address, opened in any browser, once", async () => {
    const { user, person } = await accountAndPerson();
    const browser = await matched(person);
    expect((await browser.post("/api/auth/vipps/link/mail")).status).toBe(200);
    const mail = await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC")
      .bind(person.email)
      .first<{ subject: string; text_body: string }>();
    expect(mail?.subject).toBe("Koble Vipps til kontoen din hos Lekebytte");
    const code = decodeURIComponent(/\/auth\/vipps\?koble=([^\s]+)/.exec(mail?.text_body ?? "")?.[1] ?? "");
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const phone = vippsBrowser();
    expect(await userIdOf(await phone.post("/api/auth/vipps/link/confirm", { code }))).toBe(user.id);
    expect((await vippsRows(user.id)).identities).toHaveLength(1);
    const again = await vippsBrowser().post("/api/auth/vipps/link/confirm", { code });
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toBe(VIPPS_LOGIN_REFUSALS.linkExpired);
  });

  it("with a password guessed too often is limited like sign-in guesses", async () => {
    const { person } = await accountAndPerson();
    const browser = await matched(person);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await browser.post("/api/auth/vipps/link", { password: `feil-${i}` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("an e-mail Vipps has not verified", () => {
  it("is never linked to the account that has it, nor signed in to", async () => {
    const { user, person } = await accountAndPerson({ emailVerified: false });
    const requests = await countRows("vipps_link_requests");
    const browser = vippsBrowser();
    const res = await vippsLogin(browser, person);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(VIPPS_LOGIN_REFUSALS.emailUnverified);
    expect(browser.cookies.has("lb_access")).toBe(false);
    expect(browser.cookies.has("lb_vipps_link")).toBe(false);
    expect(await countRows("vipps_link_requests")).toBe(requests);
    expect((await vippsRows(user.id)).identities).toEqual([]);
  });
});

describe("the profile", () => {
  async function linkFromProfile(user: TestUser, person: VippsPerson): Promise<Response> {
    const client = await signedInClient(user.id);
    const authorize = await startVippsLogin(client, "/api/me/vipps/start", { password: PASSWORD });
    return callback(client, await loginAtVipps(authorize, person));
  }

  it("'Koble til Vipps' asks for the password, then links; the seller card and public profile show 'Verifisert med Vipps'", async () => {
    const user = await createUser({ password: PASSWORD });
    const listing = await createListing({ userId: user.id });
    const client = await signedInClient(user.id);
    expect(await (await client.get(`/api/listings/${listing.id}`)).json()).toMatchObject({ seller: { phone_verified: false } });
    expect((await client.post("/api/me/vipps/start", { password: "feil" })).status).toBe(400);

    const res = await linkFromProfile(user, newPerson());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "linked" });
    expect(await (await client.get("/api/me/vipps")).json()).toMatchObject({ linked: true, phone_verified: true, has_password: true });
    expect(await (await client.get(`/api/listings/${listing.id}`)).json()).toMatchObject({ seller: { phone_verified: true } });
    expect(await (await vippsBrowser().get(`/api/users/${user.id}`)).json()).toMatchObject({ phone_verified: true });
    // Linked already: no second start.
    expect((await client.post("/api/me/vipps/start", { password: PASSWORD })).status).toBe(409);
  });

  it("cannot link a Vipps login that is another account's", async () => {
    const person = newPerson();
    const other = await userIdOf(await vippsLogin(vippsBrowser(), person));
    const user = await createUser({ password: PASSWORD });
    const res = await linkFromProfile(user, person);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(VIPPS_LOGIN_REFUSALS.linkedElsewhere);
    expect((await vippsRows(user.id)).identities).toEqual([]);
    expect((await vippsRows(other)).identities).toHaveLength(1);
  });

  it("'Koble fra Vipps' needs the password; afterwards Vipps no longer signs in to the account", async () => {
    const { user, person } = await accountAndPerson();
    const browser = await matched(person);
    expect(await userIdOf(await browser.post("/api/auth/vipps/link", { password: PASSWORD }))).toBe(user.id);

    const wrong = await browser.request("/api/me/vipps", { method: "DELETE", json: { password: "feil" } });
    expect(wrong.status).toBe(400);
    expect((await vippsRows(user.id)).identities).toHaveLength(1);
    const res = await browser.request("/api/me/vipps", { method: "DELETE", json: { password: PASSWORD } });
    expect(res.status).toBe(204);
    const rows = await vippsRows(user.id);
    expect(rows.identities).toEqual([]);
    expect(rows.user).toMatchObject({ phone: null, phone_verified_at: null });
    expect(await (await browser.get("/api/me/vipps")).json()).toMatchObject({ linked: false, phone_verified: false });
    // The same Vipps login now meets the account's e-mail again: proof first, as before.
    const again = await vippsLogin(vippsBrowser(), person);
    expect(await again.json()).toMatchObject({ status: "link_required" });
    expect((await browser.request("/api/me/vipps", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(404);
  });

  it("cannot unlink the only way into an account without a password", async () => {
    const browser = vippsBrowser();
    const id = await userIdOf(await vippsLogin(browser, newPerson()));
    expect(await (await browser.get("/api/me/vipps")).json()).toMatchObject({ linked: true, has_password: false });
    const res = await browser.request("/api/me/vipps", { method: "DELETE", json: { password: "hva-som-helst" } });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(VIPPS_LOGIN_REFUSALS.noPassword);
    expect((await vippsRows(id)).identities).toHaveLength(1);
  });
});

describe("deleting the account", () => {
  it("removes the Vipps login and the phone it verified", async () => {
    const { user, person } = await accountAndPerson();
    const browser = await matched(person);
    await browser.post("/api/auth/vipps/link", { password: PASSWORD });
    expect((await browser.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);
    const rows = await vippsRows(user.id);
    expect(rows.identities).toEqual([]);
    expect(rows.user).toMatchObject({ phone: null, phone_verified_at: null });
  });
});
