// What a party reads about an order's held money (decision 105): the chat's card and /betaling-fullfort.
import { ORDER_TEXTS } from "../../../domain/order-texts";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import type { OrderView } from "../../api/payments";

/** What the party reads about the money now. */
export function orderText(
  order: Pick<
    OrderView,
    "state" | "role" | "release_due_at" | "cancel_from" | "refund_amount" | "money_moved" | "payout_error" | "actions" | "shipment"
  >,
): string {
  const buyer = order.role === "buyer";
  switch (order.state) {
    case "held":
      if (buyer) return ORDER_TEXTS.buyerHeld;
      return order.shipment ? ORDER_TEXTS.sellerHeldSent : ORDER_TEXTS.sellerHeldNoDate;
    case "handed_over":
      if (!buyer) return ORDER_TEXTS.sellerHeld(formatDateTime(order.release_due_at!));
      return order.shipment
        ? ORDER_TEXTS.deliveredBuyer(formatDateTime(order.release_due_at!))
        : ORDER_TEXTS.handedOverBuyer(formatDateTime(order.release_due_at!));
    case "problem":
      return buyer ? ORDER_TEXTS.problemOpen : ORDER_TEXTS.problemOpenSeller;
    case "released":
      if (order.payout_error) return ORDER_TEXTS.payoutFailedSeller(order.payout_error);
      return order.money_moved ? ORDER_TEXTS.released : ORDER_TEXTS.payoutPending;
    case "partially_refunded":
      return ORDER_TEXTS.partiallyRefunded(formatMinorUnits(order.refund_amount));
    default:
      return ORDER_TEXTS.refunded;
  }
}
