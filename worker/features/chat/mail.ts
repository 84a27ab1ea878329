// The e-mail about unread messages a participant gets when they have been away from a conversation
// for a while (the ConversationRoom decides when; docs/decisions/030-offline-mail.md).
import { ANONYMOUS_NAME, SYSTEM_USER_ID } from "../../../domain/chat";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { sendMail, type Mail } from "../mail/mail";
import { unreadInConversation } from "./messages";

interface Recipient {
  email: string;
  display_name: string | null;
  deleted_at: string | null;
  title: string;
}

/**
 * Mail `userId` about their unread messages in the conversation, if they have any and can receive
 * mail. Returns whether a mail was sent.
 */
export async function mailUnreadMessages(env: Bindings, conversationId: string, userId: string): Promise<boolean> {
  if (userId === SYSTEM_USER_ID) return false;
  const db = env.DB;
  const unread = await unreadInConversation(db, conversationId, userId);
  if (unread.count === 0) return false;
  const recipient = await db
    .prepare(
      `SELECT u.email, p.display_name, u.deleted_at, l.title
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id
       JOIN conversations c ON c.id = ?2 AND ?1 IN (c.buyer_id, c.seller_id)
       JOIN listings l ON l.id = c.listing_id
       WHERE u.id = ?1`,
    )
    .bind(userId, conversationId)
    .first<Recipient>();
  if (!recipient || recipient.deleted_at) return false;
  const senderId = unread.senders.find((s) => s !== SYSTEM_USER_ID) ?? unread.senders[0];
  const sender = await db
    .prepare("SELECT p.display_name, u.deleted_at FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1")
    .bind(senderId)
    .first<{ display_name: string | null; deleted_at: string | null }>();
  // Only system messages unread: they are the app's own, whose name is the site's.
  const fromSystem = senderId === SYSTEM_USER_ID;
  const senderName = (!sender?.deleted_at && sender?.display_name?.trim()) || ANONYMOUS_NAME;
  const link = `${env.APP_ORIGIN.replace(/\/$/, "")}/chat/${conversationId}`;
  await sendMail(env, unreadMail(env, recipient, fromSystem ? null : senderName, unread.count, link));
  return true;
}

/**
 * "Kari har sendt deg en ny melding om «Brio togbane» på Lekebytte." From the system user (`senderName`
 * null) the site is the sender, named once: "Lekebytte har sendt deg en ny melding om «Brio togbane»."
 */
export function unreadMail(env: Bindings, to: Recipient, senderName: string | null, count: number, link: string): Mail {
  const name = to.display_name?.trim() || "der";
  const what = count === 1 ? "en ny melding" : `${count} nye meldinger`;
  const subject = `Du har ${what} om «${to.title}»`;
  const line = (out: (s: string) => string) =>
    senderName === null
      ? `${out(env.APP_NAME)} har sendt deg ${out(what)} om «${out(to.title)}».`
      : `${out(senderName)} har sendt deg ${out(what)} om «${out(to.title)}» på ${out(env.APP_NAME)}.`;
  const text =
    `Hei ${name}!\n\n${line((s) => s)}\n\n` +
    `Les og svar her:\n${link}\n\n` +
    `Du får høyst én slik e-post i timen for hver samtale.\n\nHilsen ${env.APP_NAME}`;
  const html =
    `<p>Hei ${escapeHtml(name)}!</p><p>${line(escapeHtml)}</p>` +
    `<p><a href="${escapeHtml(link)}">Les og svar</a></p><p>Du får høyst én slik e-post i timen for hver samtale.</p>`;
  return { to: to.email, subject, text, html };
}
