// Read replicas through D1 sessions (docs/decisions/110-read-replicas.md). Locally D1 has no replicas
// and every session answers from the primary, so these tests record what the Worker asks of the
// binding: which session each request opens (withSession's argument) and what it reads from the
// binding itself (the primary), through the real app with a recording binding in its env. The last
// test adds a stand-in for a lagging replica (a second database) to show what the cookie prevents.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import type { Bindings } from "../../worker/env";
import { createConversation, createListing, createUser, signedInClient, type ListingRow } from "../factories";
import { Client } from "./support/http";
import { editFormOf } from "./support/listing-form";
import { applyMigrations } from "./support/storage";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

interface Recorded {
  /** withSession's argument, one per session opened. */
  sessions: string[];
  /** Statements prepared on the binding itself, outside any session: they read the primary. */
  primary: string[];
  /** The primary's bookmark right after the last batch sent on the binding itself. */
  afterBatch?: string | null;
}

/** `client` sends through the app with a binding that records what it is asked. */
function recording(client: Client): { client: Client; log: Recorded } {
  const log: Recorded = { sessions: [], primary: [] };
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "withSession")
        return (constraint?: string) => {
          log.sessions.push(String(constraint));
          return target.withSession(constraint);
        };
      if (prop === "prepare")
        return (sql: string) => {
          log.primary.push(sql.replace(/\s+/g, " ").trim());
          return target.prepare(sql);
        };
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          log.afterBatch = await primaryNow();
          return results;
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException: () => {}, props: {} };
  client.send = async (request) => {
    const res = await app.fetch(request, { ...(env as Bindings), DB }, ctx as unknown as ExecutionContext);
    await Promise.all(pending.splice(0));
    return res;
  };
  return { client, log };
}

/**
 * The primary's bookmark now (a new session's first query goes to the primary). Locally it moves on
 * with every query, not only with writes, so tests compare bookmarks by order, never for equality.
 */
async function primaryNow(): Promise<string | null> {
  const primary = env.DB.withSession("first-primary");
  await primary.prepare("SELECT 1").first();
  return primary.getBookmark();
}

const bookmarkCookies = (res: Response) => res.headers.getSetCookie().filter((line) => line.startsWith("lb_d1="));

async function listing(): Promise<ListingRow> {
  const owner = await createUser({ displayName: "Selma Selger" });
  return createListing({
    userId: owner.id,
    title: `Brannbil ${crypto.randomUUID().slice(0, 8)}`,
    images: [`${owner.id}/1700000000000-bil.jpg`],
  });
}

describe("a signed-in user reads their own writes", () => {
  it("an edit answers with the bookmark cookie; the next read opens its session at that bookmark and shows the edit", async () => {
    const row = await listing();
    const { client, log } = recording(await signedInClient(row.userId));
    const title = `Ny tittel ${crypto.randomUUID().slice(0, 8)}`;
    const before = (await primaryNow()) ?? "";

    const put = await client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { title }) });
    expect(put.status).toBe(200);
    expect(log.sessions[0]).toBe("first-primary");
    const [cookie] = bookmarkCookies(put);
    const bookmark = client.cookies.get("lb_d1") ?? "";
    expect(bookmark).toMatch(BOOKMARK);
    expect(bookmark > before).toBe(true);
    expect(cookie.split("; ").slice(1).sort()).toEqual(["HttpOnly", "Max-Age=300", "Path=/", "SameSite=Lax"]);

    log.sessions.length = 0;
    const read = await client.get(`/api/listings/${row.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe(title);
    expect(log.sessions).toEqual([bookmark]);
  });

  it("a write made outside the request's session (a moderator's decision) is in the bookmark too", async () => {
    const row = await listing();
    const reporter = await signedInClient((await createUser()).id);
    const reported = await reporter.post("/api/reports", { target_type: "listing", target_id: row.id, reason: "Falsk annonse" });
    expect(reported.status).toBe(201);
    const { id } = (await reported.json()) as { id: string };
    const { client, log } = recording(await signedInClient((await createUser({ role: "moderator" })).id));

    const res = await client.post(`/api/moderation/reports/${id}/actions`, { action: "hide", notes: "Regelbrudd" });
    expect(res.status).toBe(200);
    const bookmark = client.cookies.get("lb_d1");
    expect(bookmark).toMatch(BOOKMARK);
    // Taken after the decision's batch ran on the binding, which the request's session never saw.
    expect(log.afterBatch).toMatch(BOOKMARK);
    expect((bookmark ?? "") > (log.afterBatch ?? "")).toBe(true);

    log.sessions.length = 0;
    const page = await client.get(`/api/listings/${row.id}`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { hidden?: { reason: string } }).hidden?.reason).toContain("Regelbrudd");
    expect(log.sessions).toEqual([bookmark]);
  });

  it("a later read moves the cookie forward when it saw a newer state (reads never go back in time)", async () => {
    const row = await listing();
    const { client, log } = recording(await signedInClient(row.userId));
    const put = await client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { title: "Endret brannbil" }) });
    expect(put.status).toBe(200);
    const first = client.cookies.get("lb_d1") ?? "";

    // Someone else writes; this user's next read sees that state and keeps it as their bookmark.
    await listing();
    const later = await client.get(`/api/listings/${row.id}`);
    expect(later.status).toBe(200);
    const moved = client.cookies.get("lb_d1") ?? "";
    expect(moved).toMatch(BOOKMARK);
    expect(moved > first).toBe(true);

    log.sessions.length = 0;
    expect((await client.get(`/api/listings/${row.id}`)).status).toBe(200);
    expect(log.sessions).toEqual([moved]);
  });

  it("a write starts on the primary with or without a bookmark, and a refused one leaves the cookie as it was", async () => {
    const [a, b] = [await listing(), await listing()];
    const { client, log } = recording(await signedInClient((await createUser()).id));

    expect((await client.request(`/api/favourites/${a.id}`, { method: "PUT" })).status).toBe(204);
    expect(log.sessions[0]).toBe("first-primary");
    const first = client.cookies.get("lb_d1") ?? "";
    expect(first).toMatch(BOOKMARK);

    log.sessions.length = 0;
    expect((await client.request(`/api/favourites/${b.id}`, { method: "PUT" })).status).toBe(204);
    expect(log.sessions[0]).toBe("first-primary");
    const second = client.cookies.get("lb_d1") ?? "";
    expect(second > first).toBe(true);

    const refused = await client.request(`/api/favourites/${crypto.randomUUID()}`, { method: "PUT" });
    expect(refused.status).toBe(404);
    expect(bookmarkCookies(refused)).toEqual([]);

    log.sessions.length = 0;
    const favourites = await client.get("/api/favourites");
    expect(favourites.status).toBe(200);
    expect(JSON.stringify(await favourites.json())).toContain(b.id);
    expect(log.sessions).toEqual([second]);
  });

  it("a chat message sent over HTTP takes no bookmark: its room writes it to D1 later, and the chat reads the room", async () => {
    const conversation = await createConversation();
    const { client, log } = recording(await signedInClient(conversation.buyer.id));
    const res = await client.post(`/api/conversations/${conversation.id}/messages`, { id: crypto.randomUUID(), content: "Er den ledig?" });
    expect(res.status).toBe(201);
    expect(log.sessions).toEqual(["first-primary"]);
    expect(bookmarkCookies(res)).toEqual([]);
    const page = await client.get(`/api/conversations/${conversation.id}/messages`);
    expect(JSON.stringify(await page.json())).toContain("Er den ledig?");
  });

  it("a signed-in read takes only the user's session check from the primary", async () => {
    const row = await listing();
    const { client, log } = recording(await signedInClient(row.userId));
    const res = await client.get(`/api/listings/${row.id}`);
    expect(res.status).toBe(200);
    expect(log.sessions).toEqual(["first-unconstrained"]);
    expect(log.primary).toHaveLength(1);
    expect(log.primary[0]).toContain("FROM users u LEFT JOIN profiles p");
    expect(bookmarkCookies(res)).toEqual([]);
  });
});

describe("visitors read from any replica and stay cacheable", () => {
  it("an anonymous GET of a page or API opens first-unconstrained, reads nothing from the primary, sets no cookie and is stored", async () => {
    const row = await listing();
    for (const path of [
      `/api/listings/${row.id}`,
      `/listing/${row.id}`,
      `/annonse/${row.seoSlug}`,
      "/api/home",
      "/",
      `/api/users/${row.userId}`,
    ]) {
      const { client, log } = recording(new Client());
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("X-Edge-Cache"), path).toBe("MISS");
      expect(res.headers.getSetCookie(), path).toEqual([]);
      expect(log.sessions, path).toEqual(["first-unconstrained"]);
      expect(log.primary, path).toEqual([]);
      await res.body?.cancel();
      const again = await client.get(path);
      expect(again.headers.get("X-Edge-Cache"), path).toBe("HIT");
      await again.body?.cancel();
    }
  });

  it("a visitor still holding a bookmark (after signing out) reads at it, gets no cookie back, and is cached as anyone", async () => {
    const row = await listing();
    const bookmark = (await primaryNow()) ?? "";
    const { client, log } = recording(new Client());
    client.cookies.set("lb_d1", bookmark);
    const res = await client.get(`/api/listings/${row.id}`);
    expect(res.status).toBe(200);
    expect(log.sessions).toEqual([bookmark]);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("X-Edge-Cache")).toBe("MISS");
    expect((await new Client().get(`/api/listings/${row.id}`)).headers.get("X-Edge-Cache")).toBe("HIT");
  });

  it("an anonymous write gets no bookmark cookie", async () => {
    const { client } = recording(new Client());
    const res = await client.post("/api/newsletter", { email: `nyhet-${crypto.randomUUID()}@test.no` });
    expect(res.status).toBe(201);
    expect(bookmarkCookies(res)).toEqual([]);
  });
});

describe("a malformed bookmark cookie is ignored", () => {
  const malformed = [
    "tull",
    "00000000-00000013-00000000",
    "00000000-00000013-00000000-0000000000000000000000000000000g",
    "00000000-00000013-00000000-00000000000000000000000000000000-00",
    "00000000-00000013-00000000-00000000000000000000000000000000".toUpperCase().replace(/0/g, "F"),
    "x".repeat(4000),
    "first-primary",
    "%3Cscript%3E",
  ];

  it("for a visitor and for a signed-in user: no 500, any replica, no cookie back", async () => {
    const row = await listing();
    const signedIn = await signedInClient(row.userId);
    for (const value of malformed) {
      for (const [who, base] of [
        ["visitor", new Client()],
        ["owner", signedIn],
      ] as const) {
        const { client, log } = recording(base);
        client.cookies.set("lb_d1", value);
        const res = await client.get(`/api/listings/${row.id}`);
        expect(res.status, `${who} ${value.slice(0, 40)}`).toBe(200);
        expect(log.sessions, `${who} ${value.slice(0, 40)}`).toEqual(["first-unconstrained"]);
        expect(bookmarkCookies(res), `${who} ${value.slice(0, 40)}`).toEqual([]);
        await res.body?.cancel();
      }
    }
  });
});

describe("with a replica that lags behind the primary", () => {
  // TEST_REPLICA (vitest.worker.config.mts) stands for a read replica: a copy of the database that
  // has the rows the factories wrote and has applied nothing the app wrote since. The binding below
  // routes sessions the way D1 does: "first-primary", and a bookmark the replica has not reached,
  // to the primary; "first-unconstrained", and a bookmark it has reached, to the replica.
  beforeAll(() => applyMigrations(env.TEST_REPLICA));

  function laggingClient(base: Client, replicaAt: string): Client {
    const DB = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "withSession")
          return (constraint = "first-unconstrained") => {
            const fresh = constraint === "first-primary" || (BOOKMARK.test(constraint) && constraint > replicaAt);
            if (fresh) return target.withSession(constraint);
            const replica = env.TEST_REPLICA.withSession("first-unconstrained");
            return { prepare: (sql: string) => replica.prepare(sql), batch: replica.batch.bind(replica), getBookmark: () => replicaAt };
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    base.send = async (request) => app.fetch(request, { ...(env as Bindings), DB }, ctx);
    return base;
  }

  it("the owner's read after an edit would be stale without the cookie, and is not with it", async () => {
    const owner = await createUser({ displayName: "Selma Selger" });
    const row = await createListing({ userId: owner.id, title: "Gammel brannbil", images: [`${owner.id}/1700000000000-bil.jpg`] });
    await createUser({ id: owner.id, email: owner.email, displayName: "Selma Selger" }, env.TEST_REPLICA);
    await createListing({ ...row, images: row.images }, env.TEST_REPLICA);
    const replicaAt = (await primaryNow()) ?? "";
    const client = laggingClient(await signedInClient(owner.id), replicaAt);
    const titleSeen = async (c: Client) => ((await (await c.get(`/api/listings/${row.id}`)).json()) as { title: string }).title;
    expect(await titleSeen(client)).toBe("Gammel brannbil");

    const put = await client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { title: "Ny brannbil" }) });
    expect(put.status).toBe(200);
    expect(client.cookies.get("lb_d1")).toMatch(BOOKMARK);

    // The same browser without the cookie: the replica answers, and it has not seen the edit.
    const withoutCookie = laggingClient(await signedInClient(owner.id), replicaAt);
    expect(await titleSeen(withoutCookie)).toBe("Gammel brannbil");
    // With it: the replica is behind the bookmark, so the read goes where the edit is.
    expect(await titleSeen(client)).toBe("Ny brannbil");
  });
});
