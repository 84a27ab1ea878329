// The only moves the trade rules allow, written out by hand (not derived from domain/trades.ts), keyed
// "state/actor/action": everything else is refused. `confirm` completes when both parties have
// confirmed the handover.
import type { TradeOfferStatus } from "../../../domain/trades";

export const ALLOWED_MOVES: Readonly<Record<string, TradeOfferStatus>> = {
  "pending/recipient/accept": "accepted",
  "pending/recipient/reject": "rejected",
  "pending/sender/cancel": "cancelled",
  "accepted/sender/cancel": "cancelled",
  "accepted/recipient/cancel": "cancelled",
  "accepted/sender/confirm": "completed",
  "accepted/recipient/confirm": "completed",
};
