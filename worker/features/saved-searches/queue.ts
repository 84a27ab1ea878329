import type { Bindings } from "../../env";
import { deliverImmediateAlerts, type ListingPublishedMessage } from "./alerts";
import { matchListings } from "./matching";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function listingIdOf(body: unknown): string | null {
  const id = (body as Partial<ListingPublishedMessage> | null)?.listingId;
  return typeof id === "string" && UUID.test(id) ? id : null;
}

/**
 * The saved-search consumer: match the batch's listings against every saved search in one run and
 * send the "Straks" alerts (docs/decisions/040, 041). A failure retries the whole batch, which is
 * safe: a listing matches a search once and an alert is claimed before it is sent. A message
 * without a listing id is dropped (logged).
 */
export async function handleSavedSearchQueue(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const ids = batch.messages.map((m) => listingIdOf(m.body));
  const valid = ids.filter((id): id is string => id !== null);
  if (valid.length < ids.length) console.warn(`saved-search batch: ${ids.length - valid.length} message(s) without a listing id dropped`);
  if (valid.length === 0) return;
  const db = env.DB;
  const stats = await matchListings(db, valid);
  const delivered = await deliverImmediateAlerts(env, db, valid);
  console.log(
    `saved-search batch: ${valid.length} listings, ${stats.candidates} candidate searches, ${stats.matches} matches (${stats.inserted} new), ${delivered.mails} alert mails`,
  );
}
