// Telling the parties about a trade that changed, after D1 has it: a system message in the
// conversation (live, unread badge), the event "trade_offer" that makes both open chats reload their
// offer cards, and for a new offer an e-mail to the recipient; visitors, by purging the pages of the
// listings the move reserved, freed or traded (decision 116). Nothing here decides anything.
import { ANONYMOUS_NAME, TRADE_OFFER_EVENT } from "../../../domain/chat";
import { TRADE_CHAT_TEXTS, TRADE_OFFER_EXPIRY_DAYS } from "../../../domain/trades";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { postSystemMessage, pushConversationEvent } from "../chat/live";
import { sendMail, type Mail } from "../mail/mail";
import { listingsChanged } from "../../lib/listing-changes";
import type { TradeChange, TradeChangeResult } from "./offers";

export interface TradeOfferEvent {
  offer_id: string;
  change: TradeChange | "superseded";
}

const CHAT_TEXT: Partial<Record<TradeChange, string>> = {
  accepted: TRADE_CHAT_TEXTS.accepted,
  rejected: TRADE_CHAT_TEXTS.rejected,
  withdrawn: TRADE_CHAT_TEXTS.withdrawn,
  cancelled: TRADE_CHAT_TEXTS.cancelled,
  completed: TRADE_CHAT_TEXTS.completed,
  // One party's confirmation only updates the cards; the completion is the news.
};

async function tell(env: Bindings, conversationId: string, event: TradeOfferEvent, text?: string, mailed = false): Promise<void> {
  if (text) await postSystemMessage(env, conversationId, text, crypto.randomUUID(), { mailed });
  await pushConversationEvent(env, conversationId, TRADE_OFFER_EVENT, event);
}

/** After a successful change: the conversation of the offer, and of every offer it made void. */
export async function announceTradeChange(env: Bindings, result: TradeChangeResult): Promise<void> {
  await listingsChanged(env, result.listings);
  if (result.change === "created") {
    const details = await newOfferDetails(env, result.offerId);
    await tell(
      env,
      result.conversationId,
      { offer_id: result.offerId, change: "created" },
      TRADE_CHAT_TEXTS.created(details.offered_title, details.requested_title),
      true,
    );
    if (!details.recipient_deleted_at) await sendMail(env, newOfferMail(env, details, result.conversationId));
    return;
  }
  await Promise.all([
    tell(env, result.conversationId, { offer_id: result.offerId, change: result.change }, CHAT_TEXT[result.change]),
    ...result.superseded.map((offer) =>
      tell(env, offer.conversation_id, { offer_id: offer.id, change: "superseded" }, TRADE_CHAT_TEXTS.superseded),
    ),
  ]);
}

interface NewOfferDetails {
  offered_title: string;
  requested_title: string;
  sender_name: string | null;
  recipient_email: string;
  recipient_name: string | null;
  recipient_deleted_at: string | null;
}

async function newOfferDetails(env: Bindings, offerId: string): Promise<NewOfferDetails> {
  const row = await env.DB.prepare(
    `SELECT lo.title AS offered_title, lr.title AS requested_title, sp.display_name AS sender_name,
              ru.email AS recipient_email, rp.display_name AS recipient_name, ru.deleted_at AS recipient_deleted_at
       FROM trade_offers o
       JOIN listings lo ON lo.id = o.offered_listing_id
       JOIN listings lr ON lr.id = o.requested_listing_id
       LEFT JOIN profiles sp ON sp.user_id = o.from_user_id
       JOIN users ru ON ru.id = o.to_user_id
       LEFT JOIN profiles rp ON rp.user_id = o.to_user_id
       WHERE o.id = ?1`,
  )
    .bind(offerId)
    .first<NewOfferDetails>();
  if (!row) throw new Error(`trade offer ${offerId} vanished after it was stored`);
  return row;
}

/** The recipient's e-mail about a new offer: who offers what for which listing, and the link (not the message). */
export function newOfferMail(env: Bindings, d: NewOfferDetails, conversationId: string): Mail {
  const name = d.recipient_name?.trim() || "der";
  const sender = d.sender_name?.trim() || ANONYMOUS_NAME;
  const link = `${env.APP_ORIGIN.replace(/\/$/, "")}/chat/${conversationId}`;
  const subject = `Nytt bytteforslag på «${d.requested_title}»`;
  const text =
    `Hei ${name}!\n\n${sender} vil bytte «${d.offered_title}» mot «${d.requested_title}» på ${env.APP_NAME}.\n\n` +
    `Se forslaget og svar her:\n${link}\n\n` +
    `Forslaget kan besvares i ${TRADE_OFFER_EXPIRY_DAYS} dager.\n\nHilsen ${env.APP_NAME}`;
  const html =
    `<p>Hei ${escapeHtml(name)}!</p><p>${escapeHtml(sender)} vil bytte «${escapeHtml(d.offered_title)}» mot «${escapeHtml(d.requested_title)}» på ${escapeHtml(env.APP_NAME)}.</p>` +
    `<p><a href="${escapeHtml(link)}">Se forslaget og svar</a></p><p>Forslaget kan besvares i ${TRADE_OFFER_EXPIRY_DAYS} dager.</p>`;
  return { to: d.recipient_email, subject, text, html };
}
