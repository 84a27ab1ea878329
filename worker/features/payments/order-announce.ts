// Telling both parties of a held-money change: a system message in the deal's chat, a live event
// and an e-mail to each (docs/decisions/105-held-payments.md).
import type { OrderAction } from "../../../domain/orders";
import { ORDER_CHAT_TEXTS, PROBLEM_REASON_LABELS } from "../../../domain/order-texts";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { ORDER_EVENT } from "../../../domain/chat";
import { SHIPMENT_CHAT_TEXTS } from "../../../domain/shipping";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { postSystemMessage, pushConversationEvent } from "../chat/live";
import { sendMail } from "../mail/mail";
import { orderChangeMail } from "./order-mail";
import { stableUuid } from "./store";

import type { OrderRow } from "./order-rows";

function chatText(row: OrderRow, action: OrderAction): string {
  switch (action) {
    case "mark_handed_over":
      return ORDER_CHAT_TEXTS.handedOver(formatDateTime(row.release_due_at!));
    case "confirm_received":
      return ORDER_CHAT_TEXTS.released;
    case "auto_release":
      return ORDER_CHAT_TEXTS.autoReleased;
    case "release_by_moderator":
      return ORDER_CHAT_TEXTS.moderatorReleased;
    case "report_problem":
      return ORDER_CHAT_TEXTS.problem(PROBLEM_REASON_LABELS[row.problem_reason ?? "other"]);
    case "refund":
      return ORDER_CHAT_TEXTS.refunded;
    case "partial_refund":
      return ORDER_CHAT_TEXTS.partiallyRefunded(formatMinorUnits(row.refund_amount), formatMinorUnits(row.amount - row.refund_amount));
    case "cancel_no_handover":
      return ORDER_CHAT_TEXTS.cancelled;
    case "seller_account_deleted":
      return ORDER_CHAT_TEXTS.sellerDeleted;
    // A sent toy's parcel moved the order (decision 145): the shipment's own texts.
    case "parcel_delivered":
      return SHIPMENT_CHAT_TEXTS.delivered(formatDateTime(row.release_due_at!));
    case "parcel_case":
      // The case's text is the lost or returned parcel's (worker/features/shipping/shipment-moves.ts).
      return row.problem_text || SHIPMENT_CHAT_TEXTS.lost;
    case "parcel_not_handed_in":
      return SHIPMENT_CHAT_TEXTS.expired;
  }
}

/**
 * A system message in the deal's chat (through the chat feature's one write path, so it is stored,
 * shown live and badged; its id derives from the order and the move, so a retry lands once) and an
 * e-mail to each party still here. The room mails no one about it: these e-mails are the mail.
 */
export async function announce(env: Bindings, row: OrderRow, action: OrderAction): Promise<void> {
  if (row.conversation_id && !row.buyer_deleted && !row.seller_deleted) {
    try {
      await postSystemMessage(env, row.conversation_id, chatText(row, action), await stableUuid(`order:${row.id}:${action}`), {
        mailed: true,
      });
    } catch (error) {
      // A party deleted the account a moment ago: the conversation takes no more messages, and
      // the e-mails below still tell whoever is left.
      if (!(error instanceof AppError)) throw error;
      console.warn("No system message about a held-money change", row.id, action, error.message);
    }
  }
  // Both parties' open chats refetch the order's card (the live event of the chat feature).
  if (row.conversation_id) {
    await pushConversationEvent(env, row.conversation_id, ORDER_EVENT, { order_id: row.id, state: row.state }).catch((error: unknown) =>
      console.warn("No live event about a held-money change", row.id, error instanceof Error ? error.message : error),
    );
  }
  const facts = {
    title: row.title,
    conversationId: row.conversation_id,
    amount: row.amount,
    refund: row.refund_amount,
    releaseAt: row.release_due_at,
  };
  const change = row.state;
  if (!row.buyer_deleted)
    await sendMail(
      env,
      orderChangeMail(env, { ...facts, to: row.buyer_email, name: row.buyer_name?.trim() || "der", role: "buyer", change }),
    );
  if (!row.seller_deleted)
    await sendMail(
      env,
      orderChangeMail(env, { ...facts, to: row.seller_email, name: row.seller_name?.trim() || "der", role: "seller", change }),
    );
}
