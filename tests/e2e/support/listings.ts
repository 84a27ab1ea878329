// Listings for end-to-end tests, made through the API with the request context's session.
import type { APIRequestContext } from "@playwright/test";
import jpeg from "jpeg-js";
import { expect } from "../fixtures";

/** A small photo for a listing. */
export function photo(): Buffer {
  const width = 320;
  const height = 240;
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = 30;
    data[i + 1] = 140 + ((i / 4) % width) / 4;
    data[i + 2] = 200;
    data[i + 3] = 255;
  }
  return jpeg.encode({ data, width, height }, 80).data;
}

export interface PublishedListing {
  id: string;
  seo_slug: string;
  payment_enabled: boolean;
  pricing_mode: string;
}

/** An active listing with one photo; `fields` replace the defaults (price in kr, as the form sends it). */
export async function publishListing(
  request: APIRequestContext,
  fields: { title: string } & Record<string, unknown>,
): Promise<PublishedListing> {
  const upload = await request.post("/api/images", { data: photo(), headers: { "Content-Type": "image/jpeg" } });
  expect(upload.status(), await upload.text()).toBe(201);
  const { key } = (await upload.json()) as { key: string };
  const res = await request.post("/api/listings", {
    data: {
      description: "Lite brukt.",
      category: "lego",
      age_range: "3-5 år",
      condition_rating: 4,
      price: "350",
      is_free: false,
      is_trade_offer: false,
      postal_code: "0150",
      images: [key],
      ...fields,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PublishedListing;
}

/** An active listing with one photo; `trade` opens it for trade offers. */
export async function createListing(
  request: APIRequestContext,
  title: string,
  { trade = false }: { trade?: boolean } = {},
): Promise<string> {
  return (await publishListing(request, { title, is_trade_offer: trade })).id;
}
