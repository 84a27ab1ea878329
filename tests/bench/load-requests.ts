// The load bench's crowd and what it sends: the bench's settings and server, the mix of endpoints,
// the bench rows (listings, conversations, sign-in accounts) and the analytics sessions it opens,
// and each endpoint's request, sent from its own visitor address over a keep-alive agent.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { hashPassword } from "../../worker/features/auth/password";
import { WORKER_TIME_REQUEST_HEADER, WORKER_TIME_RESPONSE_HEADER } from "../../worker/lib/worker-time";
import { generateListings, type BenchListing } from "./listing-generator";
import { AppServer, BenchDb, freshState, mintAccessTokens, simpleListing } from "./support";

export const RATE = Number(process.env.BENCH_RATE ?? 200);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
export const WARMUP_SECONDS = 5;
export const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 10_000);
export const VISITORS = 2_000;
export const CONVERSATIONS = 200;
export const SIGNIN_ACCOUNTS = 100;
const ANALYTICS_SESSIONS = 400;
const PASSWORD = "benk-passord-123";
export const server = AppServer.forBench("load", 8863, 8866);
export const STATE = server.stateDir;

/** Requests per 200 (0.5 % sign-ins: sessions last for weeks, so a sign-in is rare next to browsing). */
export const DEFAULT_MIX = {
  "home page": 30,
  "home API": 10,
  "search, filters only": 24,
  "search with text": 30,
  "listing page (slug)": 30,
  "listing API": 30,
  signin: 1,
  "message send": 15,
  "analytics events": 20,
  "analytics listing view": 10,
} as const;
export type Endpoint = keyof typeof DEFAULT_MIX;

export function mix(): Record<Endpoint, number> {
  const out: Record<Endpoint, number> = { ...DEFAULT_MIX };
  for (const part of (process.env.BENCH_MIX ?? "").split(",").filter(Boolean)) {
    const [name, weight] = part.split("=");
    const key = (Object.keys(out) as Endpoint[]).find((k) => k === name || k.startsWith(name));
    if (!key || !Number.isFinite(Number(weight))) throw new Error(`BENCH_MIX: unknown part "${part}"`);
    out[key] = Number(weight);
  }
  return out;
}

const TEXT_QUERIES = [
  "lego",
  "bøker",
  "boker",
  "klosser",
  "sparkesykkel",
  "lego duplo",
  "bil",
  "dukke",
  "puslespill",
  "ski",
  "nesten ny",
  "traktor",
  "babygym",
  "trampoline",
];
const FILTER_QUERIES = [
  "categories=biler",
  "free=true",
  "trade=true&categories=lego,biler",
  "min=100&max=1000&sort=price_asc",
  "conditions=4,5",
  "categories=dukker&postal=0150",
  "sort=newest",
  "",
];

export interface World {
  listings: BenchListing[];
  conversations: { id: string; buyerId: string; sellerId: string }[];
  signinEmails: string[];
  tokens: Map<string, string>;
  /** Analytics session id → its signed cookie (decision 038), filled in once the server is up. */
  analytics: Map<string, string>;
}

export async function populate(): Promise<World> {
  freshState(STATE, { demoData: false });
  const db = new BenchDb(STATE);
  const sellers = Array.from({ length: 300 }, () => db.user("bench-load-seller").id);
  const listings: BenchListing[] = [];
  for (const l of generateListings(LISTINGS, sellers, 15)) {
    db.listing(l);
    if (l.status === "active" && !l.is_hidden) listings.push(l);
  }
  const conversations = Array.from({ length: CONVERSATIONS }, (_, i) => {
    const sellerId = db.user("bench-load-chat").id;
    const buyerId = db.user("bench-load-chat").id;
    const listing = simpleListing(sellerId, `Samtaleleke ${i}`);
    db.listing(listing);
    return { id: db.conversation(listing.id, buyerId, sellerId), buyerId, sellerId };
  });
  const hash = await hashPassword(PASSWORD); // one scrypt hash (its own salt) for every sign-in account
  const signinEmails = Array.from({ length: SIGNIN_ACCOUNTS }, () => db.user("bench-load-signin", { passwordHash: hash }).email);
  db.close();
  const chatUsers = new Map([...db.families].filter(([id]) => conversations.some((c) => c.buyerId === id || c.sellerId === id)));
  return { listings, conversations, signinEmails, tokens: await mintAccessTokens(chatUsers), analytics: new Map() };
}

// ---- the requests ---------------------------------------------------------------------------------

interface Req {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  cookie?: string;
  expect: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function ownTime(header: string | string[] | undefined): number | undefined {
  const value = Number(Array.isArray(header) ? header[0] : header);
  return header === undefined || !Number.isFinite(value) ? undefined : value;
}

/** `measure`: ask the local server for our Worker's own time of this request (X-Local-Worker-Ms, decision 111). */
export function send(req: Req, address: string, measure = false): Promise<{ status: number; ms: number; edge?: string; own?: number }> {
  const started = performance.now();
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  return new Promise((resolve) => {
    const r = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: req.method,
        path: req.path,
        agent,
        headers: {
          "CF-Connecting-IP": address,
          "User-Agent":
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
          Accept: req.path.startsWith("/api/") ? "application/json" : "text/html",
          ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Origin: server.origin } : {}),
          ...(req.cookie ? { Cookie: req.cookie } : {}),
          ...(measure ? { [WORKER_TIME_REQUEST_HEADER]: "1" } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            edge: res.headers["x-edge-cache"] as string | undefined,
            own: ownTime(res.headers[WORKER_TIME_RESPONSE_HEADER.toLowerCase()]),
          }),
        );
        res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    r.on("timeout", () => r.destroy(new Error("timeout")));
    r.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    r.end(body);
  });
}

/**
 * Consenting visitors' analytics sessions, opened as a browser opens them (POST /api/analytics/sessions,
 * one per visitor address), so events and listing views carry the signed cookie they need (decision 038).
 */
export async function openAnalyticsSessions(world: World, count = ANALYTICS_SESSIONS): Promise<void> {
  for (let k = 0; k < count; k++) {
    const sessionId = randomUUID();
    const res = await fetch(`${server.base}/api/analytics/sessions`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: server.origin,
        "CF-Connecting-IP": `198.19.${Math.floor(k / 250)}.${(k % 250) + 1}`,
      },
      body: JSON.stringify({
        sessionId,
        userAgent: "bench",
        referrer: null,
        entryPage: `${server.origin}/`,
        deviceType: "mobile",
        browser: "Chrome",
        os: "Android",
      }),
    });
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith("lb_analytics="));
    if (res.status !== 202 || !cookie)
      throw new Error(`POST /api/analytics/sessions answered ${res.status} without a cookie: ${await res.text()}`);
    world.analytics.set(sessionId, cookie.split(";")[0]);
  }
}

export function makeRequests(world: World) {
  let n = 0;
  const pick = <T>(xs: readonly T[]) => xs[n++ % xs.length];
  const sessionIds = [...world.analytics.keys()];
  let chatTurn = 0;
  const make: Record<Endpoint, () => Req> = {
    "home page": () => ({ method: "GET", path: "/", expect: 200 }),
    "home API": () => ({ method: "GET", path: "/api/home", expect: 200 }),
    "search, filters only": () => ({ method: "GET", path: `/api/search?${pick(FILTER_QUERIES)}`, expect: 200 }),
    "search with text": () => ({ method: "GET", path: `/api/search?q=${encodeURIComponent(pick(TEXT_QUERIES))}`, expect: 200 }),
    "listing page (slug)": () => ({
      method: "GET",
      path: `/annonse/${world.listings[Math.floor(Math.random() * world.listings.length)].seo_slug}`,
      expect: 200,
    }),
    "listing API": () => ({
      method: "GET",
      path: `/api/listings/${world.listings[Math.floor(Math.random() * world.listings.length)].id}`,
      expect: 200,
    }),
    signin: () => ({
      method: "POST",
      path: "/api/auth/signin",
      body: { email: pick(world.signinEmails), password: PASSWORD },
      expect: 200,
    }),
    "message send": () => {
      const c = world.conversations[chatTurn % world.conversations.length];
      const from = Math.floor(chatTurn++ / world.conversations.length) % 2 === 0 ? c.buyerId : c.sellerId;
      return {
        method: "POST",
        path: `/api/conversations/${c.id}/messages`,
        body: { id: randomUUID(), content: `Hei! Er den fortsatt ledig? (${chatTurn})` },
        cookie: `lb_access=${world.tokens.get(from)}`,
        expect: 201,
      };
    },
    "analytics events": () => {
      const sessionId = pick(sessionIds);
      const events = Array.from({ length: 1 + (n % 10) }, (_, i) => ({
        eventType: i % 3 === 0 ? "search" : "page_view",
        eventCategory: i % 3 === 0 ? "search" : "navigation",
        eventAction: "view",
        eventLabel: "/sok",
        eventValue: null,
        metadata: {
          sessionId,
          timestamp: new Date().toISOString(),
          page: "/sok",
          userAgent: "bench",
          referrer: null,
          pageUrl: `${server.origin}/sok`,
        },
      }));
      return {
        method: "POST",
        path: "/api/analytics/events",
        body: { sessionId, events },
        cookie: world.analytics.get(sessionId),
        expect: 202,
      };
    },
    "analytics listing view": () => {
      const sessionId = pick(sessionIds);
      return {
        method: "POST",
        path: "/api/analytics/listing-views",
        cookie: world.analytics.get(sessionId),
        body: {
          sessionId,
          viewId: randomUUID(),
          listingId: world.listings[Math.floor(Math.random() * world.listings.length)].id,
          referrerType: "search",
          searchQuery: "lego",
          filterContext: { categories: "lego" },
          scrollDepthPercent: 40,
          viewDurationMs: 0,
        },
        expect: 202,
      };
    },
  };
  return make;
}

/** A deck of endpoint names in proportion to the mix, spread evenly (not in runs of one kind). */
export function deck(weights: Record<Endpoint, number>): Endpoint[] {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  const out: { e: Endpoint; at: number }[] = [];
  for (const [e, w] of Object.entries(weights) as [Endpoint, number][]) {
    for (let i = 0; i < w; i++) out.push({ e, at: (i + 0.5) / w + Math.random() * 1e-6 });
  }
  if (total === 0) throw new Error("BENCH_MIX leaves nothing to send");
  return out.sort((a, b) => a.at - b.at).map((x) => x.e);
}

const EXPECTED: Partial<Record<Endpoint, number>> = { "message send": 201, "analytics events": 202, "analytics listing view": 202 };
export const expected = (e: Endpoint) => EXPECTED[e] ?? 200;
