// What a party reads about an order's held money (decision 105): the chat's card and /betaling-fullfort.
import { ESCROW_TEXTS } from "../../../domain/escrow";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import type { OrderView } from "../../api/payments";

/** What the party reads about the money now. */
export function orderText(
  order: Pick<
    OrderView,
    "state" | "role" | "release_due_at" | "cancel_from" | "refund_amount" | "money_moved" | "payout_error" | "actions"
  >,
): string {
  const buyer = order.role === "buyer";
  switch (order.state) {
    case "held":
      if (buyer) return ESCROW_TEXTS.buyerHeld;
      return ESCROW_TEXTS.sellerHeldNoDate;
    case "handed_over":
      return buyer
        ? ESCROW_TEXTS.handedOverBuyer(formatDateTime(order.release_due_at!))
        : ESCROW_TEXTS.sellerHeld(formatDateTime(order.release_due_at!));
    case "problem":
      return buyer ? ESCROW_TEXTS.problemOpen : ESCROW_TEXTS.problemOpenSeller;
    case "released":
      if (order.payout_error) return ESCROW_TEXTS.payoutFailedSeller(order.payout_error);
      return order.money_moved ? ESCROW_TEXTS.released : ESCROW_TEXTS.payoutPending;
    case "partially_refunded":
      return ESCROW_TEXTS.partiallyRefunded(formatMinorUnits(order.refund_amount));
    default:
      return ESCROW_TEXTS.refunded;
  }
}
