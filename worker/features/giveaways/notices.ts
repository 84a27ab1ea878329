// Telling people about a queue move, after D1 has it (docs/decisions/075-giveaway-queue.md): a
// system message in the reservation's chat (live, unread badge, the room's offline e-mail), and when
// the toy is given away an e-mail to everyone who was still waiting (their in-app notice is the
// entry's `unseen` flag, set by the move itself); visitors, by purging the pages of a listing the move
// reserved, freed or gave away (decision 116). Nothing here decides anything; a failed notice is
// logged and never undoes the move.
import { GIVEAWAY_CHAT_TEXTS } from "../../../domain/giveaways";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { postSystemMessage } from "../chat/live";
import type { GiveawayChangeResult } from "./giveaways";
import { sendMail, type Mail } from "../mail/mail";
import { listingsChangedById } from "../../lib/listing-changes";

async function listingTitle(env: Bindings, listingId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT title FROM listings WHERE id = ?1").bind(listingId).first<{ title: string }>();
  return row?.title ?? "";
}

/** The chat text for a move, or null when the move says nothing in a chat. */
function chatText(result: GiveawayChangeResult, title: string): string | null {
  switch (result.change) {
    case "reserved":
      return GIVEAWAY_CHAT_TEXTS.reserved(title);
    case "released":
      return GIVEAWAY_CHAT_TEXTS.released;
    case "withdrawn":
      return result.wasReserved ? GIVEAWAY_CHAT_TEXTS.withdrawn : null;
    case "given":
      return GIVEAWAY_CHAT_TEXTS.given(title);
    case "joined":
      return null;
  }
}

export async function announceGiveawayChange(env: Bindings, result: GiveawayChangeResult): Promise<void> {
  if (result.change === "joined") return;
  // Every move but joining (and leaving a place that was not reserved) changes the listing's status.
  if (result.change !== "withdrawn" || result.wasReserved) await listingsChangedById(env, [result.listingId]);
  const title = await listingTitle(env, result.listingId);
  const text = chatText(result, title);
  const jobs: Promise<unknown>[] = [];
  if (text && result.conversationId) jobs.push(postSystemMessage(env, result.conversationId, text));
  if (result.change === "given" && result.passedUserIds.length > 0) jobs.push(mailPassed(env, result.passedUserIds, title));
  const outcomes = await Promise.allSettled(jobs);
  for (const outcome of outcomes) {
    if (outcome.status === "rejected")
      console.error("Could not announce a give-away queue change", result.listingId, result.change, outcome.reason);
  }
}

interface Recipient {
  email: string;
  display_name: string | null;
}

/** One e-mail to each person who was still waiting when the toy was given away. */
async function mailPassed(env: Bindings, userIds: string[], title: string): Promise<void> {
  const db = env.DB;
  // At most 100 bound parameters per statement (docs/platform.md "D1"): read the addresses in slices.
  const recipients: Recipient[] = [];
  for (let i = 0; i < userIds.length; i += 90) {
    const slice = userIds.slice(i, i + 90);
    const rows = await db
      .prepare(
        `SELECT u.email, p.display_name FROM users u LEFT JOIN profiles p ON p.user_id = u.id
         WHERE u.id IN (${slice.map((_, n) => `?${n + 1}`).join(", ")}) AND u.deleted_at IS NULL`,
      )
      .bind(...slice)
      .all<Recipient>();
    recipients.push(...rows.results);
  }
  await Promise.all(recipients.map((r) => sendMail(env, passedMail(env, r, title))));
}

/** "«Tittel» er gitt bort": the toy someone queued for went to another person. */
export function passedMail(env: Bindings, recipient: Recipient, title: string): Mail {
  const name = recipient.display_name?.trim() || "der";
  const link = `${env.APP_ORIGIN.replace(/\/$/, "")}/search?free=true`;
  const subject = `«${title}» er gitt bort`;
  const text =
    `Hei ${name}!\n\n«${title}», som du sto i kø for på ${env.APP_NAME}, er gitt bort til en annen. Takk for interessen!\n\n` +
    `Se flere leker som gis bort:\n${link}\n\nHilsen ${env.APP_NAME}`;
  const html =
    `<p>Hei ${escapeHtml(name)}!</p><p>«${escapeHtml(title)}», som du sto i kø for på ${escapeHtml(env.APP_NAME)}, er gitt bort til en annen. Takk for interessen!</p>` +
    `<p><a href="${escapeHtml(link)}">Se flere leker som gis bort</a></p>`;
  return { to: recipient.email, subject, text, html };
}
