// /api/saved-searches: saving the canonical search, validation, the per-user limits (also when saves
// race), the rights (only the owner; anyone else gets 404 and nothing changes), new matches since
// the last visit and the badge, the rate limit, the account's export and deletion, and the
// one-click unsubscribe link with valid, altered, expired, other users' and malformed tokens.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RATE_RULES, type RateRule } from "../../../domain/rate-limits";
import { MAX_SAVED_SEARCHES, SAVED_SEARCH_TEXTS } from "../../../domain/saved-searches";
import type { SavedSearch } from "../../../domain/schemas/saved-search";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "../../../worker/features/saved-searches/unsubscribe-token";
import { matchListings } from "../../../worker/features/saved-searches/matching";
import { createListing, createSavedSearch, createUser, DAY } from "../../factories";
import { Client, errorOf } from "../support/http";

const PASSWORD = "hemmelig-lagret-1";

async function signedIn(role: "user" | "moderator" = "user") {
  const user = await createUser({ password: PASSWORD, role });
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return { user, client };
}

type Session = Awaited<ReturnType<typeof signedIn>>;
let owner: Session;
let other: Session;
let moderator: Session;

beforeAll(async () => {
  [owner, other, moderator] = [await signedIn(), await signedIn(), await signedIn("moderator")];
});

async function rowOf(id: string) {
  return env.DB.prepare("SELECT name, query, alert, seen_rid FROM saved_searches WHERE id = ?1").bind(id).first();
}

async function countOf(userId: string): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_searches WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;
}

describe("saving a search", () => {
  it("keeps the canonical form of the search page's query, the trimmed name and the alert", async () => {
    const { client, user } = await signedIn();
    const res = await client.post("/api/saved-searches", {
      name: "  Duplo til Oslo  ",
      query: "?categories=biler,lego&q=+Duplo+&foo=bar&postal=01x5&sort=newest&max=10000",
      alert: "daily",
      user_id: other.user.id,
      new_count: 7,
    });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as SavedSearch;
    expect(saved).toMatchObject({
      name: "Duplo til Oslo",
      query: "q=Duplo&categories=lego,biler&postal=015&sort=newest",
      alert: "daily",
      new_count: 0,
    });
    expect(await countOf(user.id)).toBe(1);
    expect(await countOf(other.user.id)).toBe(0);
    // Filed in the matching index under its most selective facet (a 3-digit postal prefix).
    const keys = await env.DB.prepare("SELECT key FROM saved_search_keys WHERE saved_search_id = ?1").bind(saved.id).all();
    expect(keys.results).toEqual([{ key: "p:015" }]);
    // "Straks" unless the owner chooses otherwise.
    const plain = (await (await client.post("/api/saved-searches", { name: "Gratis", query: "free=true" })).json()) as SavedSearch;
    expect(plain.alert).toBe("immediate");
  });

  it.each([
    [{ name: "", query: "q=lego" }, SAVED_SEARCH_TEXTS.nameRequired, "name"],
    [{ name: "   ", query: "q=lego" }, SAVED_SEARCH_TEXTS.nameRequired, "name"],
    [{ name: "x".repeat(61), query: "q=lego" }, SAVED_SEARCH_TEXTS.nameTooLong, "name"],
    [{ name: "Lego", query: "q=lego", alert: "hver time" }, SAVED_SEARCH_TEXTS.alertInvalid, "alert"],
    [{ name: "Lego" }, SAVED_SEARCH_TEXTS.emptySearch, "query"],
    [{ name: "Alt", query: "" }, SAVED_SEARCH_TEXTS.emptySearch, "query"],
    [{ name: "Alt", query: "sort=newest&foo=bar&min=0&max=10000" }, SAVED_SEARCH_TEXTS.emptySearch, "query"],
    [{ name: "Alt", query: "q=%20%2B%2D%22" }, SAVED_SEARCH_TEXTS.emptySearch, "query"],
  ])("refuses %j with 400 %s and stores nothing", async (body, message, field) => {
    const { client, user } = await signedIn();
    const res = await client.post("/api/saved-searches", body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.message).toBe(message);
    expect(error.fields?.[field]).toBe(message);
    expect(await countOf(user.id)).toBe(0);
  });

  it("refuses the same filters twice (whatever the sort order) with 409", async () => {
    const { client, user } = await signedIn();
    expect((await client.post("/api/saved-searches", { name: "A", query: "q=tog&categories=lego" })).status).toBe(201);
    const again = await client.post("/api/saved-searches", { name: "B", query: "categories=lego&q=tog&sort=price_asc" });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(SAVED_SEARCH_TEXTS.duplicate);
    expect(await countOf(user.id)).toBe(1);
  });

  it(`stops at ${MAX_SAVED_SEARCHES} per user, also when the last saves race`, async () => {
    const { client, user } = await signedIn();
    for (let i = 0; i < MAX_SAVED_SEARCHES - 1; i++) await createSavedSearch(user.id, `q=ting${i}`);
    const results = await Promise.all(
      [1, 2, 3].map((i) => client.post("/api/saved-searches", { name: `Kapp ${i}`, query: `q=kappløp${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect((await errorOf(r)).message).toBe(SAVED_SEARCH_TEXTS.tooMany);
    expect(await countOf(user.id)).toBe(MAX_SAVED_SEARCHES);
  });

  it("needs a session", async () => {
    const res = await new Client().post("/api/saved-searches", { name: "Lego", query: "q=lego" });
    expect(res.status).toBe(401);
  });
});

describe("only the owner reaches a saved search", () => {
  type Who = "anonymous" | "other" | "moderator" | "owner";
  const CASES: { name: string; call: (c: Client, id: string) => Promise<Response>; owner: number }[] = [
    { name: "PATCH rename", call: (c, id) => c.patch(`/api/saved-searches/${id}`, { name: "Kapret" }), owner: 200 },
    { name: "PATCH alert", call: (c, id) => c.patch(`/api/saved-searches/${id}`, { alert: "off" }), owner: 200 },
    { name: "POST seen", call: (c, id) => c.post(`/api/saved-searches/${id}/seen`), owner: 204 },
    { name: "DELETE", call: (c, id) => c.delete(`/api/saved-searches/${id}`), owner: 204 },
  ];
  const clients = (): Record<Who, Client> => ({
    anonymous: new Client(),
    other: other.client,
    moderator: moderator.client,
    owner: owner.client,
  });

  describe.each(CASES)("$name", ({ call, owner: ownerStatus }) => {
    it.each(["anonymous", "other", "moderator", "owner"] as const)("as %s", async (who) => {
      const saved = await createSavedSearch(owner.user.id, `q=rettighet${crypto.randomUUID().slice(0, 8)}`);
      await createListing({ title: "Nyere annonse" }); // so "seen" would move seen_rid
      const before = await rowOf(saved.id);
      const res = await call(clients()[who], saved.id);
      const expected = who === "owner" ? ownerStatus : who === "anonymous" ? 401 : 404;
      expect(res.status).toBe(expected);
      if (expected === 404) expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.notFound);
      if (who !== "owner") expect(await rowOf(saved.id)).toEqual(before);
    });
  });

  it("lists only the user's own searches, newest first", async () => {
    const { client, user } = await signedIn();
    const first = await createSavedSearch(user.id, "q=eldst");
    const second = await createSavedSearch(user.id, "q=nyest");
    await createSavedSearch(other.user.id, "q=fremmed");
    const list = (await (await client.get("/api/saved-searches")).json()) as SavedSearch[];
    expect(list.map((s) => s.id)).toEqual([second.id, first.id]);
    expect((await new Client().get("/api/saved-searches")).status).toBe(401);
  });

  it.each(["ikke-en-id", "00000000-0000-4000-8000-000000000000"])("answers 404 for %s", async (id) => {
    expect((await owner.client.patch(`/api/saved-searches/${id}`, { name: "X" })).status).toBe(404);
    expect((await owner.client.delete(`/api/saved-searches/${id}`)).status).toBe(404);
    expect((await owner.client.post(`/api/saved-searches/${id}/seen`)).status).toBe(404);
  });
});

describe("renaming, the alert and deleting", () => {
  it("renames, changes the alert, and refuses an empty change", async () => {
    const { client, user } = await signedIn();
    const saved = await createSavedSearch(user.id, "q=dukkevogn");
    const renamed = await client.patch(`/api/saved-searches/${saved.id}`, { name: " Dukkevogn til Ida " });
    expect(await renamed.json()).toMatchObject({ name: "Dukkevogn til Ida", alert: "immediate" });
    const daily = await client.patch(`/api/saved-searches/${saved.id}`, { alert: "daily" });
    expect(await daily.json()).toMatchObject({ name: "Dukkevogn til Ida", alert: "daily" });
    const empty = await client.patch(`/api/saved-searches/${saved.id}`, {});
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toBe(SAVED_SEARCH_TEXTS.nothingToChange);
  });

  it("turning the alert off drops the alerts not sent yet", async () => {
    const { client, user } = await signedIn();
    const saved = await createSavedSearch(user.id, "q=skøyter", { alert: "daily" });
    const listing = await createListing({ title: "Skøyter str 30" });
    await matchListings(env.DB, [listing.id]);
    const state = () => env.DB.prepare("SELECT alert_state FROM saved_search_matches WHERE saved_search_id = ?1").bind(saved.id).first();
    expect(await state()).toEqual({ alert_state: "pending" });
    await client.patch(`/api/saved-searches/${saved.id}`, { alert: "off" });
    expect(await state()).toEqual({ alert_state: "off" });
  });

  it("deleting removes the search with its index keys and matches", async () => {
    const { client, user } = await signedIn();
    const saved = await createSavedSearch(user.id, "q=pulk");
    await matchListings(env.DB, [(await createListing({ title: "Pulk" })).id]);
    expect((await client.delete(`/api/saved-searches/${saved.id}`)).status).toBe(204);
    for (const table of ["saved_searches", "saved_search_keys", "saved_search_matches"]) {
      const column = table === "saved_searches" ? "id" : "saved_search_id";
      expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?1`).bind(saved.id).first(), table).toEqual({
        n: 0,
      });
    }
  });

  it("over the rate limit answers 429 with Retry-After and changes nothing", async () => {
    const { client, user } = await signedIn();
    const saved = await createSavedSearch(user.id, "q=sparkesykkel");
    const rule: RateRule = RATE_RULES.savedSearchWrite;
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)")
      .bind(`${rule.scope}:${user.id}`, Date.now() - 1000, rule.limit)
      .run();
    for (const res of [
      await client.post("/api/saved-searches", { name: "Ny", query: "q=ny-ting" }),
      await client.patch(`/api/saved-searches/${saved.id}`, { name: "Endret" }),
      await client.delete(`/api/saved-searches/${saved.id}`),
    ]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    expect(await countOf(user.id)).toBe(1);
    expect(await rowOf(saved.id)).toMatchObject({ name: saved.name });
  });
});

describe("new matches since the last visit, and the badge", () => {
  it("counts listed matches above the last visit; opening the search resets them; alerts off are left out of the badge", async () => {
    const { client, user } = await signedIn();
    const kran = await createSavedSearch(user.id, "q=lekekran", { name: "Kran" });
    const quiet = await createSavedSearch(user.id, "q=lekekran&trade=true", { name: "Stille", alert: "off" });
    const list = async () =>
      Object.fromEntries(((await (await client.get("/api/saved-searches")).json()) as SavedSearch[]).map((s) => [s.name, s.new_count]));
    const badge = async () => ((await (await client.get("/api/saved-searches/badge")).json()) as { count: number }).count;
    expect(await badge()).toBe(0);

    const a = await createListing({ title: "Lekekran", isTradeOffer: true });
    const b = await createListing({ title: "Lekekran med krok" });
    await matchListings(env.DB, [a.id, b.id]);
    expect(await list()).toEqual({ Kran: 2, Stille: 1 });
    expect(await badge()).toBe(1);

    // A listing that is hidden or sold is no longer new.
    await env.DB.prepare("UPDATE listings SET status = 'sold' WHERE id = ?1").bind(b.id).run();
    expect(await list()).toEqual({ Kran: 1, Stille: 1 });

    expect((await client.post(`/api/saved-searches/${kran.id}/seen`)).status).toBe(204);
    expect(await list()).toEqual({ Kran: 0, Stille: 1 });
    expect(await badge()).toBe(0);

    const c = await createListing({ title: "Lekekran, stor" });
    await matchListings(env.DB, [c.id]);
    // The new listing is not open to trade: only "Kran" gets it; "Stille" still has its one new match.
    expect(await list()).toEqual({ Kran: 1, Stille: 1 });
    expect(await badge()).toBe(1);
    expect(quiet.alert).toBe("off");
    expect((await new Client().get("/api/saved-searches/badge")).status).toBe(401);
  });
});

describe("the account", () => {
  it("exports the saved searches and deletes them with the account", async () => {
    const { client, user } = await signedIn();
    const saved = await createSavedSearch(user.id, "q=barnesete", { name: "Barnesete" });
    await matchListings(env.DB, [(await createListing({ title: "Barnesete" })).id]);
    const data = (await (await client.post("/api/me/export", { password: PASSWORD })).json()) as { saved_searches: unknown[] };
    expect(data.saved_searches).toEqual([
      expect.objectContaining({ id: saved.id, name: "Barnesete", query: "q=barnesete", alert: "immediate" }),
    ]);
    const res = await client.request("/api/me", { method: "DELETE", json: { password: PASSWORD } });
    expect(res.status).toBe(204);
    expect(await countOf(user.id)).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_search_matches WHERE user_id = ?1").bind(user.id).first()).toEqual({
      n: 0,
    });
  });
});

describe("the unsubscribe link", () => {
  let ip = 0;
  /** No session cookies: the link works signed out. Each call from its own address (rate limit). */
  const unsubscribe = (token: unknown, address = `198.51.100.${++ip}`) =>
    new Client().post("/api/saved-searches/unsubscribe", { token }, { headers: { "CF-Connecting-IP": address } });

  async function twoSearches() {
    const user = await createUser();
    const target = await createSavedSearch(user.id, "q=gyngehest", { name: "Gyngehest", alert: "daily" });
    const kept = await createSavedSearch(user.id, "q=hoppeslott", { name: "Hoppeslott" });
    return { user, target, kept };
  }

  it("switches off the alert of that one saved search, without a session, and again without harm", async () => {
    const { user, target, kept } = await twoSearches();
    const listing = await createListing({ title: "Gyngehest" });
    await matchListings(env.DB, [listing.id]);
    const token = await signUnsubscribeToken(env, target.id, user.id);
    const res = await unsubscribe(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: "Gyngehest" });
    expect(await rowOf(target.id)).toMatchObject({ alert: "off" });
    expect(await rowOf(kept.id)).toMatchObject({ alert: "immediate" });
    expect(await env.DB.prepare("SELECT alert_state FROM saved_search_matches WHERE saved_search_id = ?1").bind(target.id).first()).toEqual(
      { alert_state: "off" },
    );
    expect((await unsubscribe(token)).status).toBe(200);
    expect(await rowOf(kept.id)).toMatchObject({ alert: "immediate" });
  });

  it("cannot be pointed at another saved search, nor at another user's", async () => {
    const { user, target, kept } = await twoSearches();
    const stranger = await twoSearches();
    const token = await signUnsubscribeToken(env, target.id, user.id);
    const [, , expires, mac] = token.split(".");
    for (const altered of [
      `${kept.id}.${user.id}.${expires}.${mac}`, // the same user's other search
      `${stranger.target.id}.${stranger.user.id}.${expires}.${mac}`, // someone else's search
      `${target.id}.${stranger.user.id}.${expires}.${mac}`,
      `${target.id}.${user.id}.${Number(expires) + 86_400}.${mac}`, // a later expiry
    ]) {
      const res = await unsubscribe(altered);
      expect(res.status, altered).toBe(400);
      expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.linkInvalid);
    }
    // A genuine token of one user names only that user's searches: with another user's search id
    // the server signed nothing, and a signature for (that search, this user) changes nothing.
    const crossed = await signUnsubscribeToken(env, stranger.target.id, user.id);
    const res = await unsubscribe(crossed);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.linkGone);
    for (const id of [target.id, kept.id, stranger.target.id, stranger.kept.id])
      expect(await rowOf(id)).not.toMatchObject({ alert: "off" });
  });

  it.each([
    ["a flipped signature character", (t: string) => t.slice(0, -1) + (t.endsWith("A") ? "B" : "A")],
    [
      "a signature made with another secret",
      async (_t: string, id: string, user: string) =>
        signUnsubscribeToken({ ...env, JWT_SECRET: "en-helt-annen-hemmelighet-som-er-lang-nok-0123" }, id, user),
    ],
    ["no signature", (t: string) => t.split(".").slice(0, 3).join(".")],
    ["garbage", () => "ikke.en.gyldig.lenke"],
    ["an empty token", () => ""],
    ["a number", () => 12345],
    ["a very long token", (t: string) => t + "A".repeat(400)],
  ])("refuses %s and changes nothing", async (_name, make) => {
    const { user, target } = await twoSearches();
    const token = await signUnsubscribeToken(env, target.id, user.id);
    const res = await unsubscribe(await make(token, target.id, user.id));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.linkInvalid);
    expect(await rowOf(target.id)).toMatchObject({ alert: "daily" });
  });

  it("refuses a link past its date with its own message", async () => {
    const { user, target } = await twoSearches();
    const token = await signUnsubscribeToken(env, target.id, user.id, new Date(Date.now() - 91 * DAY));
    expect(await verifyUnsubscribeToken(env, token)).toEqual({ ok: false, reason: "expired" });
    const res = await unsubscribe(token);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.linkExpired);
    expect(await rowOf(target.id)).toMatchObject({ alert: "daily" });
    // Still valid on its last day.
    const fresh = await signUnsubscribeToken(env, target.id, user.id, new Date(Date.now() - 89 * DAY));
    expect((await unsubscribe(fresh)).status).toBe(200);
  });

  it("says so when the saved search is gone", async () => {
    const { user, target } = await twoSearches();
    const token = await signUnsubscribeToken(env, target.id, user.id);
    await env.DB.prepare("DELETE FROM saved_searches WHERE id = ?1").bind(target.id).run();
    const res = await unsubscribe(token);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe(SAVED_SEARCH_TEXTS.linkGone);
  });

  it("is rate limited per address", async () => {
    const { user, target } = await twoSearches();
    const token = await signUnsubscribeToken(env, target.id, user.id);
    const rule = RATE_RULES.unsubscribeAddress;
    const address = "203.0.113.77";
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)")
      .bind(`${rule.scope}:${address}`, Date.now() - 1000, rule.limit)
      .run();
    const res = await unsubscribe(token, address);
    expect(res.status).toBe(429);
    expect(await rowOf(target.id)).toMatchObject({ alert: "daily" });
  });
});
