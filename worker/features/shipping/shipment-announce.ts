// Telling the parties what their parcel does (decisions 145, 150): a system message in the deal's
// chat for each of the parcel's own moves, and the seller's e-mail with the code. The order's moves
// (delivered, a case, the expiry) are announced by the order (payments/order-announce.ts). Each
// message's id derives from the parcel and its move, so a retry lands once.
import { CARRIER_LABELS, HAND_IN_PLACES } from "../../../domain/carriers";
import { ORDER_EVENT } from "../../../domain/chat";
import { formatDate } from "../../../domain/format";
import { SHIPMENT_STATE_LABELS, SHIPMENT_TEXTS, type ShipmentState } from "../../../domain/shipping";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { postSystemMessage, pushConversationEvent } from "../chat/live";
import { sendMail } from "../mail/mail";
import { orderMail } from "../payments/order-mail";
import { type OrderRow, orderRow } from "../payments/order-rows";
import { stableUuid } from "../payments/store";
import type { ShipmentRow } from "./shipment-rows";

/** The seller's message when the parcel is booked: the code, the deadline and where to hand it in. */
export function bookedSellerText(row: Pick<ShipmentRow, "carrier" | "drop_off_code" | "drop_off_deadline">): string {
  return [
    SHIPMENT_TEXTS.dropOffCode(row.drop_off_code ?? ""),
    SHIPMENT_TEXTS.dropOffBy(formatDate(row.drop_off_deadline)),
    `Skriv koden tydelig på pakken. ${HAND_IN_PLACES[row.carrier]}`,
  ].join("\n");
}

function bookedBuyerText(row: ShipmentRow): string {
  return `Frakten er bestilt med ${CARRIER_LABELS[row.carrier]}. Selgeren leverer pakken innen ${formatDate(row.drop_off_deadline)}. Sporingsnummer: ${row.shipment_number}.`;
}

function trackingText(row: ShipmentRow, to: ShipmentState): string {
  const label = SHIPMENT_STATE_LABELS[to];
  if (to === "ready_for_pickup" && row.pickup_point_name) return `${label} hos ${row.pickup_point_name}.`;
  return `${label}.`;
}

/** What the parcel's move says to whom; null for the moves the order announces or that need no word. */
function messagesFor(row: ShipmentRow, to: ShipmentState, order: OrderRow): { to: string; text: string }[] | null {
  switch (to) {
    case "booked":
      return [
        { to: order.seller_id, text: bookedSellerText(row) },
        { to: order.buyer_id, text: bookedBuyerText(row) },
      ];
    case "booking_failed":
      return [
        { to: order.seller_id, text: `${row.last_booking_error ?? SHIPMENT_TEXTS.bookingFailedSeller}` },
        { to: order.buyer_id, text: SHIPMENT_TEXTS.bookingFailedBuyer },
      ];
    case "dropped_off":
    case "in_transit":
    case "ready_for_pickup":
      return [{ to: "both", text: trackingText(row, to) }];
    default:
      return null;
  }
}

/**
 * Announce the parcel's move to `to` (the row as it is after the move). Mails the seller the code
 * once booked; the other messages reach an absent party through the chat's own offline mail.
 */
export async function announceParcel(env: Bindings, row: ShipmentRow, to: ShipmentState): Promise<void> {
  const order = await orderRow(env.DB, row.order_id);
  if (!order) return;
  const messages = messagesFor(row, to, order);
  if (!messages) return;
  if (order.conversation_id && !order.buyer_deleted && !order.seller_deleted) {
    for (const [i, m] of messages.entries()) {
      try {
        await postSystemMessage(
          env,
          order.conversation_id,
          m.text,
          await stableUuid(`shipment:${row.id}:${to}:${row.booking_attempts}:${i}`),
          m.to === "both" ? {} : { recipientId: m.to, mailed: m.to === order.seller_id && to === "booked" },
        );
      } catch (error) {
        // A party deleted the account a moment ago: the conversation takes no more messages.
        if (!(error instanceof AppError)) throw error;
        console.warn("No system message about a parcel", row.id, to, error.message);
      }
    }
    await pushConversationEvent(env, order.conversation_id, ORDER_EVENT, { order_id: order.id, state: order.state }).catch(
      (error: unknown) => console.warn("No live event about a parcel", row.id, error instanceof Error ? error.message : error),
    );
  }
  if (to === "booked" && !order.seller_deleted) {
    await sendMail(
      env,
      orderMail(
        env,
        { to: order.seller_email, name: order.seller_name?.trim() || "der", title: order.title, conversationId: order.conversation_id },
        `Sendekode for «${order.title}»`,
        `Kjøperen har betalt, og frakten er bestilt. ${bookedSellerText(row).replaceAll("\n", " ")}`,
      ),
    );
  }
}
