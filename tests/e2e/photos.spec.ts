// Photos at the size of the screen on a 390 px phone at 3× (docs/decisions/123-photo-variants.md):
// with photo-sized uploads (1600×1200, ~320 KB), search cards load the card's 360 px copy and never
// the uploaded photo, and the listing page loads its photo once, as the 1200 px copy its preload
// named. `npm run bench:images` measures the bytes with 50 photos.
import type { APIRequestContext, Page } from "@playwright/test";
import { realSizePhoto } from "../factories/real-size-photo";
import { expect, test } from "./fixtures";
import { deleteAccount, signUpAndSignIn, uniqueEmail } from "./support/accounts";

test.use({ deviceScaleFactor: 3 });

/** A listing with one uploaded photo; its key and slug. */
async function listingWithPhoto(request: APIRequestContext, title: string, photo: Uint8Array) {
  const upload = await request.post("/api/images", { data: Buffer.from(photo), headers: { "Content-Type": "image/jpeg" } });
  expect(upload.status(), await upload.text()).toBe(201);
  const { key } = (await upload.json()) as { key: string };
  const res = await request.post("/api/listings", {
    data: {
      title,
      description: "Lite brukt.",
      category: "lego",
      age_range: "3-5 år",
      condition_rating: 4,
      price: "350",
      is_free: false,
      is_trade_offer: false,
      postal_code: "0150",
      images: [key],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { key, slug: ((await res.json()) as { seo_slug: string }).seo_slug };
}

/** Every listing photo the page asks for (path below /images/ → bytes received), from now on. */
function photoRequests(page: Page): Map<string, number> {
  const seen = new Map<string, number>();
  page.on("response", async (response) => {
    const path = decodeURIComponent(new URL(response.url()).pathname);
    if (!path.startsWith("/images/")) return;
    seen.set(path.slice("/images/".length), (await response.body().catch(() => Buffer.alloc(0))).length);
  });
  return seen;
}

/** Until every photo in `scope` has loaded (a decoded picture, not the stock one). */
async function photosLoaded(page: Page, selector: string, count: number): Promise<void> {
  await expect
    .poll(() =>
      page
        .locator(selector)
        .evaluateAll(
          (imgs) =>
            (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth > 0 && i.currentSrc.includes("/images/")).length,
        ),
    )
    .toBe(count);
}

test("cards load the 360 px copy, and the listing page its photo once, as the 1200 px copy", async ({ page, request }) => {
  await signUpAndSignIn(request, uniqueEmail("foto"));
  const word = `fotoprove${Date.now()}`;
  const photos = [realSizePhoto(1), realSizePhoto(2)];
  const listings = [
    await listingWithPhoto(request, `Lego ${word} brannstasjon`, photos[0]),
    await listingWithPhoto(request, `Lego ${word} politibil`, photos[1]),
  ];

  const onSearch = photoRequests(page);
  await page.goto(`/search?q=${word}`);
  await photosLoaded(page, "article img", 2);
  expect([...onSearch.keys()].sort()).toEqual(listings.map((l) => `${l.key}/360.webp`).sort());
  // A copy is a small part of the upload it was made from (a card's thumbnail, not the photo).
  for (const [i, { key }] of listings.entries()) expect(onSearch.get(`${key}/360.webp`)).toBeLessThan(photos[i].length / 8);

  const onListing = photoRequests(page);
  await page.goto(`/annonse/${listings[0].slug}`);
  await photosLoaded(page, '[aria-label="Bilder"] img', 1);
  // 390 CSS px at 3× is 1170 device pixels: the 1200 px copy, asked for once (preload and <img> agree);
  // below it the seller's other listing as a card, with the card's copy. No uploaded photo itself.
  expect([...onListing.keys()].sort()).toEqual([`${listings[0].key}/1200.webp`, `${listings[1].key}/360.webp`]);
  expect(onListing.get(`${listings[0].key}/1200.webp`)).toBeLessThan(photos[0].length / 2);

  await deleteAccount(request);
});
