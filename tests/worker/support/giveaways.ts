// Shared by the give-away queue tests (tests/worker/giveaways/): a free listing with its giver and
// takers signed in, the queue's routes, what D1 holds of the queue, its chat and its mail, and a
// suspension.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { GiveawayListingView } from "../../../domain/giveaways";
import { createListing, createUser, signedInClient } from "../../factories";
import type { Client } from "./http";

export const SYSTEM = "00000000-0000-0000-0000-000000000000";

export const listingStatus = async (id: string) =>
  (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())?.status;
export const entries = async (listingId: string) =>
  (
    await env.DB.prepare(
      "SELECT user_id, status, message, conversation_id, unseen FROM giveaway_queue WHERE listing_id = ?1 ORDER BY created_at, id",
    )
      .bind(listingId)
      .all<{ user_id: string; status: string; message: string; conversation_id: string | null; unseen: number }>()
  ).results;
export const systemMessages = async (conversationId: string) =>
  (
    await env.DB.prepare("SELECT content FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 ORDER BY seq")
      .bind(conversationId, SYSTEM)
      .all<{ content: string }>()
  ).results.map((r) => r.content);
export const outbox = async (to: string) =>
  (
    await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1")
      .bind(to)
      .all<{ subject: string; text_body: string }>()
  ).results;
export const countRows = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** A free listing with its giver (signed in) and `takers` people (signed in) who have not joined yet. */
export async function freeListing(takers = 2, overrides: Parameters<typeof createListing>[0] = {}) {
  const giver = await createUser({ displayName: "Gro Giver" });
  const listing = await createListing({ userId: giver.id, isFree: true, title: "Duplo brannstasjon", ...overrides });
  const people = await Promise.all(Array.from({ length: takers }, (_, i) => createUser({ displayName: `Taker ${i + 1}` })));
  const clients = await Promise.all(people.map((p) => signedInClient(p.id)));
  return { giver, giverClient: await signedInClient(giver.id), listing, people, clients };
}

export const base = (listingId: string) => `/api/giveaways/listings/${listingId}`;

export async function join(client: Client, listingId: string, message = "Kan hente i kveld") {
  return client.post(`${base(listingId)}/queue`, { message });
}

export async function view(client: Client, listingId: string): Promise<GiveawayListingView> {
  const res = await client.get(base(listingId));
  expect(res.status).toBe(200);
  return (await res.json()) as GiveawayListingView;
}

export async function suspend(userId: string) {
  await env.DB.prepare(
    "INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason) VALUES (?1, 1, ?2, ?3)",
  )
    .bind(userId, new Date(Date.now() + 86_400_000).toISOString(), "Spam")
    .run();
}
