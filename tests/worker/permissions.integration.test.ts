// Permission matrix (docs/security.md "How it is tested"): every listing-changing route × {anonymous,
// other user, moderator, owner}, asserting the status and that nothing changed for the refused.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createListing, createUser } from "../factories";
import { Client } from "./support/http";

const PASSWORD = "hemmelig123";
type Who = "anonymous" | "other" | "moderator" | "owner";

const clients = {} as Record<Who, Client>;
const ids = {} as Record<Exclude<Who, "anonymous">, string>;

async function signedIn(role: "user" | "moderator") {
  const user = await createUser({ password: PASSWORD, role });
  const client = new Client();
  expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
  return { client, id: user.id };
}

beforeAll(async () => {
  clients.anonymous = new Client();
  for (const [who, role] of [
    ["owner", "user"],
    ["other", "user"],
    ["moderator", "moderator"],
  ] as const) {
    const s = await signedIn(role);
    clients[who] = s.client;
    ids[who] = s.id;
  }
});

const form = (images: string[]) => ({
  title: "Endret tittel",
  category: "lego",
  age_range: "3-5 år",
  condition_rating: 3,
  price: "10",
  is_free: false,
  is_trade_offer: false,
  postal_code: "0150",
  images,
});

async function snapshot(id: string) {
  return env.DB.prepare("SELECT title, status, price, images, is_hidden, updated_at FROM listings WHERE id = ?1").bind(id).first();
}

interface Case {
  name: string;
  call: (c: Client, listingId: string, image: string) => Promise<Response>;
  expected: Record<Who, number>;
}

const CASES: Case[] = [
  {
    name: "PUT /api/listings/:id",
    call: (c, id, image) => c.request(`/api/listings/${id}`, { method: "PUT", json: form([image]) }),
    expected: { anonymous: 401, other: 403, moderator: 403, owner: 200 },
  },
  {
    name: "POST /api/listings/:id/status",
    call: (c, id) => c.post(`/api/listings/${id}/status`, { status: "reserved" }),
    expected: { anonymous: 401, other: 403, moderator: 403, owner: 200 },
  },
  {
    name: "DELETE /api/listings/:id",
    call: (c, id) => c.delete(`/api/listings/${id}`),
    expected: { anonymous: 401, other: 403, moderator: 403, owner: 204 },
  },
  {
    name: "GET /api/me/listings/:id",
    call: (c, id) => c.get(`/api/me/listings/${id}`),
    expected: { anonymous: 401, other: 403, moderator: 403, owner: 200 },
  },
];

describe.each(CASES)("$name", ({ call, expected }) => {
  it.each(["anonymous", "other", "moderator", "owner"] as const)("as %s", async (who) => {
    const image = `${ids.owner}/${crypto.randomUUID()}.jpg`;
    await env.IMAGES.put(image, new Uint8Array([0xff, 0xd8, 0xff, 1]));
    const listing = await createListing({ userId: ids.owner, images: [image] });
    const before = await snapshot(listing.id);
    const res = await call(clients[who], listing.id, image);
    expect(res.status).toBe(expected[who]);
    if (who !== "owner") {
      expect(await snapshot(listing.id)).toEqual(before);
      expect(await env.IMAGES.head(image)).not.toBeNull();
    }
  });
});

describe("someone else's private objects answer 404", () => {
  it.each(["anonymous", "other", "owner"] as const)("a hidden listing as %s", async (who) => {
    const listing = await createListing({ userId: ids.owner, isHidden: true });
    expect((await clients[who].get(`/api/listings/${listing.id}`)).status).toBe(who === "owner" ? 200 : 404);
  });

  it("a moderator may see a hidden listing but not change it", async () => {
    const listing = await createListing({ userId: ids.owner, isHidden: true });
    expect((await clients.moderator.get(`/api/listings/${listing.id}`)).status).toBe(200);
    const before = await snapshot(listing.id);
    expect((await clients.moderator.delete(`/api/listings/${listing.id}`)).status).toBe(403);
    expect(await snapshot(listing.id)).toEqual(before);
  });

  it.each(["anonymous", "other", "moderator"] as const)("removing the owner's photo as %s", async (who) => {
    const image = `${ids.owner}/${crypto.randomUUID()}.jpg`;
    await env.IMAGES.put(image, new Uint8Array([0xff, 0xd8, 0xff, 1]));
    const res = await clients[who].delete(`/api/images/${image}`);
    expect(res.status).toBe(who === "anonymous" ? 401 : 404);
    expect(await env.IMAGES.head(image)).not.toBeNull();
  });

  it.each(["/api/me", "/api/me/listings", "/api/favourites", "/api/favourites/ids"])("%s needs a session", async (path) => {
    expect((await clients.anonymous.get(path)).status).toBe(401);
  });

  it("the data export needs a session and the password", async () => {
    expect((await clients.anonymous.post("/api/me/export", { password: PASSWORD })).status).toBe(401);
    expect((await clients.other.post("/api/me/export", { password: "feil" })).status).toBe(400);
  });
});
