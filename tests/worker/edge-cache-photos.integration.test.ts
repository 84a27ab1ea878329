// The edge cache for visitors (docs/decisions/101-edge-cache.md): listing photos are served from
// caches.default to visitors and signed-in readers alike, never a photo only its owner may see, and a
// change to the listing that shows one purges it. tests/worker/setup.ts empties caches.default before
// each test (the factories write D1 directly and purge nothing), so the tests do not depend on their
// order.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing, createUser, signedInClient, type ListingRow } from "../factories";
import { Client } from "./support/http";
import { editFormOf } from "./support/listing-form";
import { listing, word } from "./support/edge-cache";
import { watchRequestD1 } from "./support/request-d1";

describe("listing photos are served from the edge cache, to visitors and signed-in readers alike", () => {
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const putPhoto = (key: string) => env.IMAGES.put(key, JPEG, { httpMetadata: { contentType: "image/jpeg" } });

  /** A public listing whose photo is in R2, and the photo's address. */
  async function photographed(): Promise<{ row: ListingRow; path: string; key: string }> {
    const row = await listing();
    const key = row.images[0];
    await putPhoto(key);
    return { row, path: `/images/${key.split("/").map(encodeURIComponent).join("/")}`, key };
  }

  const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

  it("the second view asks neither D1 nor R2, signed in or not, and a browser's ETag gets a 304", async () => {
    const { path, key } = await photographed();
    const first = await new Client().get(path);
    expect([first.status, first.headers.get("X-Edge-Cache"), first.headers.get("Cache-Control")]).toEqual([
      200,
      "MISS",
      "public, max-age=3600",
    ]);
    expect(await bytesOf(first)).toEqual(JPEG);
    const etag = first.headers.get("ETag") ?? "";
    expect(etag).not.toBe("");
    // Gone from R2 and asked of no D1 statement: only the stored copy can answer now.
    await env.IMAGES.delete(key);
    const signedIn = await signedInClient((await createUser()).id);
    const d1 = watchRequestD1();
    try {
      const answers: Response[] = [];
      for (const client of [new Client(), signedIn]) {
        const again = await client.get(path);
        answers.push(again);
        expect([again.status, again.headers.get("X-Edge-Cache"), again.headers.get("Cache-Control")]).toEqual([
          200,
          "HIT",
          "public, max-age=3600",
        ]);
        expect(await bytesOf(again)).toEqual(JPEG);
      }
      const revalidated = await new Client().get(path, { headers: { "If-None-Match": etag } });
      expect([revalidated.status, revalidated.headers.get("X-Edge-Cache"), await revalidated.text()]).toEqual([304, "HIT", ""]);
      // Not even the signed-in reader's session: a public photo is the same for everyone.
      expect(d1.statementsOf(...answers, revalidated)).toBe(0);
    } finally {
      d1.stop();
    }
  });

  it("a photo only its owner may see is never stored: visitors still get 404 afterwards", async () => {
    const owner = await createUser();
    const key = `${owner.id}/1700000000000-skjult.jpg`;
    await createListing({ userId: owner.id, title: `${word()} skjult`, images: [key], isHidden: true });
    await putPhoto(key);
    const path = `/images/${key}`;
    const mine = await (await signedInClient(owner.id)).get(path);
    expect([mine.status, mine.headers.get("Cache-Control"), mine.headers.get("X-Edge-Cache")]).toEqual([
      200,
      "private, max-age=3600",
      "BYPASS",
    ]);
    await mine.body?.cancel();
    const visitor = await new Client().get(path);
    expect([visitor.status, visitor.headers.get("X-Edge-Cache")]).toEqual([404, "BYPASS"]);
    await visitor.body?.cancel();
  });

  it("a change to the listing that shows it purges it: deleted by its owner, hidden by moderation, the photo edited out", async () => {
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    const changes: [string, (row: ListingRow) => Promise<number>][] = [
      ["deleted by its owner", async (row) => (await (await signedInClient(row.userId)).delete(`/api/listings/${row.id}`)).status],
      [
        "hidden by moderation",
        async (row) => {
          const reporter = await signedInClient((await createUser()).id);
          const reported = await reporter.post("/api/reports", { target_type: "listing", target_id: row.id, reason: "Falsk annonse" });
          const { id } = (await reported.json()) as { id: string };
          return (await mod.post(`/api/moderation/reports/${id}/actions`, { action: "hide", notes: "Regelbrudd" })).status;
        },
      ],
      [
        "the photo edited out",
        async (row) => {
          const other = `${row.userId}/1700000000001-annet.jpg`;
          await putPhoto(other);
          const owner = await signedInClient(row.userId);
          return (await owner.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { images: [other] }) })).status;
        },
      ],
    ];
    for (const [change, make] of changes) {
      const { row, path } = await photographed();
      await (await new Client().get(path)).body?.cancel();
      expect((await new Client().get(path)).headers.get("X-Edge-Cache"), change).toBe("HIT");
      expect([200, 204], change).toContain(await make(row));
      const after = await new Client().get(path);
      expect([after.status, after.headers.get("X-Edge-Cache")], change).toEqual([404, "BYPASS"]);
      await after.body?.cancel();
    }
  });
});
