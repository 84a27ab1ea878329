// Who may see a listing photo at /images/{key}, and that no request reads or deletes an R2 object
// outside its owner's photo prefix (docs/security.md "Uploads"; docs/decisions/007-images.md).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PHOTO_KEY_PATTERN } from "../../../domain/photos";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { createListing, createUser, jpegPhoto } from "../../factories";
import { Client, ORIGIN } from "../support/http";

const PASSWORD = "hemmelig123";
type Who = "anonymous" | "owner" | "other" | "moderator" | "buyer";
const clients = {} as Record<Who, Client>;
const ids = {} as Record<Exclude<Who, "anonymous">, string>;

beforeAll(async () => {
  clients.anonymous = new Client();
  for (const [who, role] of [
    ["owner", "user"],
    ["other", "user"],
    ["moderator", "moderator"],
    ["buyer", "user"],
  ] as const) {
    const user = await createUser({ password: PASSWORD, role });
    const client = new Client();
    expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
    clients[who] = client;
    ids[who] = user.id;
  }
});

async function photo(): Promise<string> {
  const key = `${ids.owner}/${Date.now()}-${crypto.randomUUID().slice(0, 8)}.jpg`;
  await env.IMAGES.put(key, jpegPhoto(), { httpMetadata: { contentType: "image/jpeg" } });
  return key;
}

async function statusFor(who: Who, key: string): Promise<number> {
  const res = await clients[who].get(`/images/${key}`);
  await res.arrayBuffer();
  return res.status;
}

async function statuses(key: string): Promise<Record<Who, number>> {
  const out = {} as Record<Who, number>;
  for (const who of ["anonymous", "owner", "other", "moderator", "buyer"] as const) out[who] = await statusFor(who, key);
  return out;
}

describe("who sees a listing photo", () => {
  it("everyone, for an active, reserved or finished deal's listing (sold, traded, given away), with public caching", async () => {
    for (const status of ["active", "reserved", "sold", "traded", "given_away"] as const) {
      const key = await photo();
      await createListing({ userId: ids.owner, images: [key], status });
      expect(await statuses(key)).toEqual({ anonymous: 200, owner: 200, other: 200, moderator: 200, buyer: 200 });
      expect((await new Client().get(`/images/${key}`)).headers.get("Cache-Control")).toBe("public, max-age=3600");
    }
  });

  it("the owner and moderators only, for a hidden listing, and never from a shared cache", async () => {
    const key = await photo();
    await createListing({ userId: ids.owner, images: [key], isHidden: true });
    expect(await statuses(key)).toEqual({ anonymous: 404, owner: 200, other: 404, moderator: 200, buyer: 404 });
    const res = await clients.owner.get(`/images/${key}`);
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=3600");
    expect(res.headers.get("Vary")).toBe("Cookie");
    await res.arrayBuffer();
  });

  it("the owner and moderators only, for a sold listing moderation hid, even with a conversation about it", async () => {
    const key = await photo();
    const listing = await createListing({ userId: ids.owner, images: [key], status: "sold", isHidden: true });
    await env.DB.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id) VALUES (?1, ?2, ?3, ?4)")
      .bind(crypto.randomUUID(), listing.id, ids.buyer, ids.owner)
      .run();
    expect(await statuses(key)).toEqual({ anonymous: 404, owner: 200, other: 404, moderator: 200, buyer: 404 });
  });

  it("only its owner, for a fresh upload no listing uses yet (the wizard's preview)", async () => {
    const key = await photo();
    expect(await statuses(key)).toEqual({ anonymous: 404, owner: 200, other: 404, moderator: 404, buyer: 404 });
  });

  it("nobody, once only deleted listings use it", async () => {
    const key = await photo();
    await createListing({ userId: ids.owner, images: [key], status: "deleted" });
    expect(await statuses(key)).toEqual({ anonymous: 404, owner: 404, other: 404, moderator: 404, buyer: 404 });
  });

  it("nobody, under someone else's prefix, even with a listing of the viewer's own pointing at it", async () => {
    const key = await photo();
    // A listing row of `other` naming the owner's key (rows cannot be made so through the API).
    await createListing({ userId: ids.other, images: [key] });
    expect(await statusFor("anonymous", key)).toBe(404);
    expect(await statusFor("other", key)).toBe(404);
  });
});

/** The Worker with a bucket that records every key it is asked to read, write or delete. */
function recordingEnv() {
  const touched: string[] = [];
  const bucket = env.IMAGES;
  const recorder = new Proxy(bucket, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (["get", "head", "put", "delete"].includes(String(prop))) {
          for (const k of [args[0]].flat()) touched.push(String(k));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { env: { ...env, IMAGES: recorder } as Bindings, touched };
}

function withSession(client: Client, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set("Cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  headers.set("Origin", ORIGIN);
  return { ...init, headers };
}

describe("path traversal never reaches an object outside the owner's photo prefix", () => {
  const hostile = (owner: string) => [
    `${owner}%2F..%2Fsecret.txt`,
    `${owner}/..%2F..%2Fsecret.txt`,
    `${owner}/..%2Fsitemaps%2Fsitemap.xml`,
    `${owner}/%2E%2E%2Fsecret.txt`,
    `${owner}/..%5Csecret.jpg`,
    `${owner}/a%2F..%2F..%2F${crypto.randomUUID()}%2Fx.jpg`,
    `${owner}/x.jpg%00.txt`,
    `${owner}/.hidden.jpg`,
    `..%2F${owner}%2Fx.jpg`,
    `${owner}/%E0%A4%A.jpg`,
    `${owner}/%`,
    `sitemaps/sitemap.xml`,
  ];

  /** Every key the bucket was asked about is a well-formed photo key under `owner`. */
  function expectOnlyOwnPhotoKeys(touched: string[], owner: string) {
    for (const key of touched) {
      expect(key, key).toMatch(PHOTO_KEY_PATTERN);
      expect(key.startsWith(`${owner}/`), key).toBe(true);
    }
  }

  it("GET /images/… as the owner of the prefix", async () => {
    await env.IMAGES.put("secret.txt", "hemmelig");
    for (const path of hostile(ids.owner)) {
      const { env: recorded, touched } = recordingEnv();
      const res = await app.fetch(new Request(`${ORIGIN}/images/${path}`, withSession(clients.owner)), recorded);
      expect(res.status, path).toBe(404);
      expectOnlyOwnPhotoKeys(touched, ids.owner);
    }
  });

  it("DELETE /api/images/… as the owner of the prefix", async () => {
    const victim = `${ids.other}/${Date.now()}-offer.jpg`;
    await env.IMAGES.put(victim, jpegPhoto());
    for (const path of [...hostile(ids.owner), `${ids.owner}/..%2F${victim.replace("/", "%2F")}`]) {
      const { env: recorded, touched } = recordingEnv();
      const res = await app.fetch(new Request(`${ORIGIN}/api/images/${path}`, withSession(clients.owner, { method: "DELETE" })), recorded);
      expect(res.status, path).toBe(404);
      expect(touched, path).toEqual([]);
    }
    expect(await env.IMAGES.head(victim)).not.toBeNull();
    expect(await env.IMAGES.head("secret.txt")).not.toBeNull();
  });
});
