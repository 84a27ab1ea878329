// Photos on "Meld fra om et problem" (decision 108): the buyer uploads up to 4 for the order, checked
// and cleaned as listing photos are; the report names them and the batch that opens the case attaches
// them, or nothing at all. Private evidence: only the buyer, the seller and staff with staff rights
// read them, never cached. Unused uploads are removed by the cron after a day.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { OrderCase, OrderView } from "../../../domain/order-views";
import type { Bindings } from "../../../worker/env";
import { runOrderCron } from "../../../worker/features/payments/orders";
import {
  containsBytes,
  createUser,
  jpegPhoto,
  jpegSegments,
  jpegWithMetadata,
  PHOTO_LOCATION,
  pngPhoto,
  signedInClient,
} from "../../factories";
import { deleteAccount } from "../../../worker/features/account/account";
import { paidOrder, payAndHold, type PaidOrder } from "../support/orders";
import { Client, errorOf } from "../support/http";
import { postWith, readsHeldUntil, staleReads } from "../support/race";
import { removeUnusedProblemPhotos } from "../../../worker/features/payments/problem-photos";
import { checkout, connectedSeller, payableListing, signedIn } from "../support/payments";

const HOUR = 3_600_000;

function upload(client: Client, order: Pick<PaidOrder, "orderId">, body: Uint8Array, type = "image/jpeg") {
  return client.request(`/api/payments/orders/${order.orderId}/photos`, { method: "POST", body, headers: { "Content-Type": type } });
}

async function uploaded(client: Client, order: Pick<PaidOrder, "orderId">, body: Uint8Array = jpegPhoto()): Promise<string> {
  const res = await upload(client, order, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

function report(order: PaidOrder, photos: unknown, client = order.buyerClient) {
  return client.post(`/api/payments/orders/${order.orderId}/problem`, {
    reason: "damaged",
    text: "Døren på kjøleskapet er knekt.",
    photos,
  });
}

async function photoRows(orderId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, uploader_id, r2_key, attached_at, position FROM problem_photos WHERE order_id = ?1 ORDER BY created_at",
  )
    .bind(orderId)
    .all<{ id: string; uploader_id: string; r2_key: string; attached_at: string | null; position: number | null }>();
  return results;
}

async function state(orderId: string): Promise<string> {
  return (await env.DB.prepare("SELECT state FROM orders WHERE id = ?1").bind(orderId).first<{ state: string }>())!.state;
}

async function refusal(res: Response, status: number, message: string) {
  expect(res.status, await res.clone().text()).toBe(status);
  expect((await errorOf(res)).message).toBe(message);
}

describe("a problem report with photos", () => {
  it("the buyer attaches two photos, cleaned of their metadata; buyer, seller and moderator see them, no one else", async () => {
    const order = await paidOrder("card");
    const withGps = jpegWithMetadata(jpegPhoto());
    const first = await uploaded(order.buyerClient, order, withGps);
    const second = await uploaded(order.buyerClient, order, await pngPhoto());
    // Stored under the problem photos' own prefix, without the EXIF GPS, XMP or the comment.
    const rows = await photoRows(order.orderId);
    expect(rows.map((r) => r.r2_key)).toEqual([
      expect.stringMatching(new RegExp(`^problem-photos/${order.buyer.id}/[0-9]+-[0-9a-f]{12}\\.jpg$`)),
      expect.stringMatching(new RegExp(`^problem-photos/${order.buyer.id}/[0-9]+-[0-9a-f]{12}\\.png$`)),
    ]);
    const stored = new Uint8Array(await (await env.IMAGES.get(rows[0].r2_key))!.arrayBuffer());
    expect(jpegSegments(stored)).not.toContain("E1");
    expect(containsBytes(stored, PHOTO_LOCATION.street)).toBe(false);
    // Not attached yet: nobody reads an upload no report has used, and the public photo route never serves the prefix.
    expect((await order.buyerClient.get(`/api/payments/orders/${order.orderId}/photos/${first}`)).status).toBe(404);
    expect((await new Client().get(`/images/${rows[0].r2_key}`)).status).toBe(404);

    const res = await report(order, [second, first]);
    expect(res.status, await res.clone().text()).toBe(200);
    const view = (await res.json()) as OrderView;
    const url = (id: string) => `/api/payments/orders/${order.orderId}/photos/${id}`;
    expect(view).toMatchObject({
      state: "problem",
      photos: [
        { id: second, url: url(second) },
        { id: first, url: url(first) },
      ],
    });
    expect((await photoRows(order.orderId)).map((r) => [r.id, r.position])).toEqual([
      [first, 1],
      [second, 0],
    ]);

    // The seller's card in the chat shows them too; the moderator's case as well.
    const sellerCards = (await (
      await order.sellerClient.get(`/api/payments/orders?conversation_id=${order.conversationId}`)
    ).json()) as OrderView[];
    expect(sellerCards[0].photos.map((p) => p.id)).toEqual([second, first]);
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    const cases = (await (await mod.get("/api/moderation/payment-cases")).json()) as OrderCase[];
    expect(cases.find((c) => c.order_id === order.orderId)!.photos.map((p) => p.id)).toEqual([second, first]);

    for (const client of [order.buyerClient, order.sellerClient, mod]) {
      const photo = await client.get(url(first));
      expect(photo.status).toBe(200);
      expect(photo.headers.get("Cache-Control")).toBe("private, no-store");
      expect(photo.headers.get("Content-Type")).toBe("image/jpeg");
      expect(new Uint8Array(await photo.arrayBuffer())).toEqual(stored);
    }
    // Anyone else: 404 (a stranger, a suspended moderator), a visitor 401.
    const { client: stranger } = await signedIn();
    await refusal(await stranger.get(url(first)), 404, "Kjøpet finnes ikke.");
    const suspended = await createUser({ role: "moderator" });
    await env.DB.prepare("INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until) VALUES (?1, 1, ?2)")
      .bind(suspended.id, new Date(Date.now() + 86_400_000).toISOString())
      .run();
    expect((await (await signedInClient(suspended.id)).get(url(first))).status).toBe(404);
    expect((await new Client().get(url(first))).status).toBe(401);
    // A photo id of another order on this order's path is not there.
    const other = await paidOrder("card");
    const foreign = await uploaded(other.buyerClient, other);
    expect((await report(other, [foreign])).status).toBe(200);
    await refusal(await order.buyerClient.get(url(foreign)), 404, "Bildet finnes ikke");
  });

  it("a report without photos still works, and a moderator without a case reads no photo", async () => {
    const order = await paidOrder("vipps");
    const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, {
      reason: "not_received",
      text: "Ingen pakke etter to uker.",
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as OrderView).photos).toEqual([]);
  });
});

describe("every bad photo is refused in Norwegian, and a refused report writes nothing", () => {
  it("on upload: wrong type (415), too large (413), empty (400); the seller (403), a stranger (404) and a visitor (401)", async () => {
    const order = await paidOrder("card");
    await refusal(
      await upload(order.buyerClient, order, new TextEncoder().encode("GIF89a\x01\x00\x01\x00"), "image/gif"),
      415,
      "Kun JPEG, PNG og WebP er tillatt",
    );
    await refusal(
      await upload(order.buyerClient, order, new TextEncoder().encode("<svg onload=alert(1)></svg>"), "image/png"),
      415,
      "Kun JPEG, PNG og WebP er tillatt",
    );
    await refusal(await upload(order.buyerClient, order, new Uint8Array(5 * 1024 * 1024 + 1)), 413, "Filen er for stor (maks 5MB)");
    await refusal(await upload(order.buyerClient, order, new Uint8Array()), 400, "Mangler bildefil");
    await refusal(await upload(order.sellerClient, order, jpegPhoto()), 403, "Bare kjøperen kan melde fra om et problem med kjøpet.");
    const { client: stranger } = await signedIn();
    await refusal(await upload(stranger, order, jpegPhoto()), 404, "Kjøpet finnes ikke.");
    expect((await upload(new Client(), order, jpegPhoto())).status).toBe(401);
    expect(await photoRows(order.orderId)).toEqual([]);
    expect((await env.IMAGES.list({ prefix: `problem-photos/${order.buyer.id}/` })).objects).toEqual([]);
  });

  it("on the report: too many, twice the same, someone else's, another order's, already used; nothing attached, the case not opened", async () => {
    const order = await paidOrder("card");
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await uploaded(order.buyerClient, order));
    await refusal(await report(order, ids), 400, "Du kan legge ved opptil 4 bilder.");
    await refusal(await report(order, [ids[0], ids[0]]), 400, "Det samme bildet er lagt ved to ganger.");
    await refusal(await report(order, ["ikke-et-bilde"]), 400, "Ugyldig bilde. Last opp bildet på nytt.");
    await refusal(await report(order, "alle"), 400, "Ugyldig bilde. Last opp bildet på nytt.");

    // Another buyer's upload (for their own order): answered as if it did not exist.
    const someoneElse = await paidOrder("card");
    const theirs = await uploaded(someoneElse.buyerClient, someoneElse);
    await refusal(await report(order, [ids[0], theirs]), 400, "Fant ikke bildet blant bildene du har lastet opp. Last det opp på nytt.");
    await refusal(
      await report(order, [crypto.randomUUID()]),
      400,
      "Fant ikke bildet blant bildene du har lastet opp. Last det opp på nytt.",
    );

    // The same buyer's other order: a photo uploaded for one order is not for another; once used, it is used.
    const secondOrder = await paidOrderFor(order);
    const mine = await uploaded(order.buyerClient, secondOrder);
    await refusal(await report(order, [mine]), 409, "Bildet er lastet opp til et annet kjøp. Last det opp på nytt her.");
    expect((await report(secondOrder, [mine])).status).toBe(200);
    await refusal(await report(order, [mine]), 409, "Bildet er allerede brukt i en sak. Last det opp på nytt.");

    // Nothing was half-written: the orders are still held and their uploads unused.
    expect(await state(order.orderId)).toBe("held");
    expect((await photoRows(order.orderId)).every((r) => r.attached_at === null)).toBe(true);
    // The same photos work in a correct report.
    const ok = await report(order, ids.slice(0, 4));
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await photoRows(order.orderId)).filter((r) => r.attached_at !== null)).toHaveLength(4);
    // After the report: no more uploads for the order (the lifecycle's own text).
    await refusal(
      await upload(order.buyerClient, order, jpegPhoto()),
      409,
      "Du har allerede meldt fra om et problem. En moderator ser på saken.",
    );
  });

  it("at most 12 unused uploads per order", async () => {
    const order = await paidOrder("card");
    for (let i = 0; i < 12; i++) await uploaded(order.buyerClient, order);
    await refusal(
      await upload(order.buyerClient, order, jpegPhoto()),
      409,
      "Du har lastet opp for mange bilder til dette kjøpet. Prøv igjen i morgen.",
    );
    expect(await photoRows(order.orderId)).toHaveLength(12);
    expect((await env.IMAGES.list({ prefix: `problem-photos/${order.buyer.id}/` })).objects).toHaveLength(12);
  });
});

/** Another held order bought by the same buyer as `order`. */
async function paidOrderFor(order: PaidOrder): Promise<PaidOrder> {
  const seller = await connectedSeller();
  const listing = await payableListing(seller.id, { price: 200 });
  const held = await payAndHold(await checkout(order.buyerClient, listing.id, "card"), "card");
  return { ...order, ...held, listingId: listing.id };
}

describe("at the same moment", () => {
  it("two reports of one order with different photos: one case opens, with its own photos only", async () => {
    const order = await paidOrder("card");
    const a = await uploaded(order.buyerClient, order);
    const b = await uploaded(order.buyerClient, order);
    // Both reports have checked the order and their photos before either writes.
    const race = staleReads(/FROM problem_photos WHERE id IN/, 2);
    const path = `/api/payments/orders/${order.orderId}/problem`;
    const body = (photos: string[]) => ({ reason: "damaged", text: "Døren på kjøleskapet er knekt.", photos });
    const [first, second] = await Promise.all([
      postWith(race.env, order.buyerClient, path, body([a])),
      postWith(race.env, order.buyerClient, path, body([b])),
    ]);
    expect(race.arrived).toBe(2);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const attached = (await photoRows(order.orderId)).filter((r) => r.attached_at !== null).map((r) => r.id);
    expect(attached).toEqual([first.status === 200 ? a : b]);
    expect(await state(order.orderId)).toBe("problem");
  });

  it("an upload removed by the cron while its report is on the way: the report is refused, no case without its photo", async () => {
    const order = await paidOrder("card");
    const a = await uploaded(order.buyerClient, order);
    // The report has checked its photo; the cron (a day on) removes it before the report writes.
    const cron = new Promise((r) => setTimeout(r, 50)).then(() =>
      removeUnusedProblemPhotos(env as Bindings, new Date(Date.now() + 25 * HOUR)),
    );
    const res = await postWith(
      readsHeldUntil(/FROM problem_photos WHERE id IN/, cron),
      order.buyerClient,
      `/api/payments/orders/${order.orderId}/problem`,
      {
        reason: "damaged",
        text: "Døren på kjøleskapet er knekt.",
        photos: [a],
      },
    );
    expect(await cron).toBeGreaterThanOrEqual(1);
    await refusal(res, 400, "Fant ikke bildet blant bildene du har lastet opp. Last det opp på nytt.");
    expect(await state(order.orderId)).toBe("held");
  });
});

describe("unused uploads", () => {
  it("the cron removes uploads no report used after a day, and keeps a case's photos", async () => {
    const order = await paidOrder("card");
    const used = await uploaded(order.buyerClient, order);
    const unused = await uploaded(order.buyerClient, order);
    expect((await report(order, [used])).status).toBe(200);
    await runOrderCron(env as Bindings, new Date(Date.now() + 23 * HOUR));
    expect((await photoRows(order.orderId)).map((r) => r.id).sort()).toEqual([used, unused].sort());
    const unusedKey = (await photoRows(order.orderId)).find((r) => r.id === unused)!.r2_key;
    await runOrderCron(env as Bindings, new Date(Date.now() + 25 * HOUR));
    expect((await photoRows(order.orderId)).map((r) => r.id)).toEqual([used]);
    expect(await env.IMAGES.head(unusedKey)).toBeNull();
    expect((await order.sellerClient.get(`/api/payments/orders/${order.orderId}/photos/${used}`)).status).toBe(200);
  });

  it("a buyer who deletes the account takes the photos along", async () => {
    const order = await paidOrder("card");
    const id = await uploaded(order.buyerClient, order);
    expect((await report(order, [id])).status).toBe(200);
    await deleteAccount(env as Bindings, order.buyer.id);
    expect(await photoRows(order.orderId)).toEqual([]);
    expect((await env.IMAGES.list({ prefix: `problem-photos/${order.buyer.id}/` })).objects).toEqual([]);
  });
});
