// An order as the API answers it: to one of its parties, to a moderator as a case, and with its
// payment on the payment's own page.
import type { OrderState, OrderAction } from "./orders";
import type { ProblemReason } from "./order-texts";
import type { PaidOrderFacts } from "./payments";
import type { Role } from "./roles";
import type { ShipmentView } from "./shipping";

/** The held money of an order as one of its parties (or a moderator) sees it. */
export interface OrderView {
  order_id: string;
  state: OrderState;
  role: "buyer" | "seller" | "moderator";
  amount: number;
  refund_amount: number;
  paid_at: string;
  handed_over_at: string | null;
  /** When the cron releases the money (after a handover). */
  release_due_at: string | null;
  /** From when the buyer may cancel (held only). */
  cancel_from: string | null;
  settled_at: string | null;
  /** Provider acknowledged the money's move (released or refunded). */
  money_moved: boolean;
  /** A refused transfer: what the seller must fix (seller only). */
  payout_error: string | null;
  /** What this viewer may do now. */
  actions: OrderAction[];
  listing: { id: string; title: string; seo_slug: string };
  conversation_id: string | null;
  /** The photos of the buyer's problem report, in the order the buyer chose (served privately). */
  photos: { id: string; url: string }[];
  /** The parcel of an order the buyer chose "Sending" for; null for "Henting". */
  shipment: ShipmentView | null;
}

/** A case in /moderation: the problem, both parties and their chat. */
export interface OrderCase extends OrderView {
  problem_reason: ProblemReason;
  problem_text: string;
  problem_at: string;
  provider: "card" | "vipps";
  /** With their roles: the staff rule (decision 085) refuses a case with staff on either side to moderators. */
  buyer: { id: string; display_name: string; role: Role };
  seller: { id: string; display_name: string; role: Role };
  messages: { id: string; sender: "buyer" | "seller" | "system"; content: string; created_at: string }[];
}

/** A paid order on /betaling-fullfort and /payment-success: what was paid and, once held, its money. */
export interface PaymentDetails extends PaidOrderFacts {
  role: "buyer" | "seller";
  listing: { id: string; title: string; images: string[]; seo_slug: string } | null;
  /** Null when the seller's profile is gone ("Ukjent selger"). */
  seller: { user_id: string; display_name: string | null } | null;
  /** The held money (decision 105) as this viewer sees it. */
  order: OrderView | null;
}
