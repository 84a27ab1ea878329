// Shared by the listings API tests (tests/worker/listings/listings-*.integration.test.ts): a user
// signed in with a password, photo uploads, and the create form.
import { expect } from "vitest";
import { createUser, jpegPhoto } from "../../factories";
import { Client } from "./http";

export const PASSWORD = "hemmelig123";
export const JPEG = jpegPhoto();

export async function signedIn() {
  const user = await createUser({ password: PASSWORD });
  const client = new Client();
  expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
  return { client, user };
}

export async function upload(client: Client, bytes: Uint8Array, type = "image/jpeg") {
  return client.request("/api/images", { method: "POST", body: bytes, headers: { "Content-Type": type } });
}

export async function uploadKey(client: Client, bytes: Uint8Array = JPEG): Promise<string> {
  const res = await upload(client, bytes);
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

export const form = (images: string[], extra: Record<string, unknown> = {}) => ({
  title: "Lego Duplo togbane",
  description: "Komplett sett med skinner.",
  category: "lego",
  age_range: "3-5 år",
  condition_rating: 4,
  price: "350",
  is_free: false,
  is_trade_offer: true,
  postal_code: "0150",
  images,
  ...extra,
});
