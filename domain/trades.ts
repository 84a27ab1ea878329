// Trades (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server calls", "Error messages"):
// the offer lifecycle, who may move it, expiry, the labels and the texts. The Worker
// enforces the lifecycle in SQL (worker/features/trades/offers.ts) and explains a refusal with these
// rules; the web shows each party the buttons these rules allow.

import { findTransition, type Lifecycle, type Transition } from "./lifecycle";
import type { ConversationListing } from "./chat";

export const TRADE_OFFER_STATUSES = ["pending", "accepted", "rejected", "completed", "cancelled"] as const;
export type TradeOfferStatus = (typeof TRADE_OFFER_STATUSES)[number];
/** What a person sees: a pending offer past `expires_at` is "expired" (no status of its own, docs/product.md "States"). */
export type TradeDisplayStatus = TradeOfferStatus | "expired";

/** A pending offer can be answered for 7 days after it was sent. */
export const TRADE_OFFER_EXPIRY_DAYS = 7;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const TRADE_OFFER_EXPIRY_MS = TRADE_OFFER_EXPIRY_DAYS * DAY_MS;

/** The optional message to the seller: trimmed, empty is stored as null. */
export const TRADE_MESSAGE_MAX_LENGTH = 1000;

/** Sent, received and completed lists in the trade history, per page. */
export const TRADE_HISTORY_PAGE_SIZE = 50;

export const TRADE_STATUS_LABELS: Record<TradeDisplayStatus, string> = {
  pending: "Venter",
  accepted: "Akseptert",
  rejected: "Avslått",
  completed: "Fullført",
  cancelled: "Avbrutt",
  expired: "Utløpt",
};

/** The viewer's side of an offer. */
export type TradeRole = "sender" | "recipient";

/**
 * What a party can do: the recipient accepts or rejects a pending offer; the sender withdraws it
 * (cancel); once accepted, either party confirms the handover (the trade is completed when both
 * have) or cancels the trade before that.
 */
export type TradeAction = "accept" | "reject" | "cancel" | "confirm";

/** A move of an offer; "confirm" goes to completed only when the other party has confirmed too. */
export type TradeTransition = Transition<TradeOfferStatus, TradeRole>;

/** The whole lifecycle: pending → accepted | rejected | cancelled; accepted → completed | cancelled. */
export const TRADE_TRANSITIONS: Lifecycle<TradeAction, TradeOfferStatus, TradeRole> = {
  accept: [{ from: "pending", by: ["recipient"], to: "accepted" }],
  reject: [{ from: "pending", by: ["recipient"], to: "rejected" }],
  cancel: [
    { from: "pending", by: ["sender"], to: "cancelled" },
    { from: "accepted", by: ["sender", "recipient"], to: "cancelled" },
  ],
  confirm: [{ from: "accepted", by: ["sender", "recipient"], to: "completed" }],
};

export const TRADE_ACTIONS = Object.keys(TRADE_TRANSITIONS) as TradeAction[];

export interface TradeOfferState {
  status: TradeOfferStatus;
  expires_at: string;
  from_user_id: string;
  to_user_id: string;
}

export function tradeExpiresAt(createdAt: Date): string {
  return new Date(createdAt.getTime() + TRADE_OFFER_EXPIRY_MS).toISOString();
}

/** A pending offer whose time is up: it can no longer be answered or withdrawn. */
export function isExpired(offer: Pick<TradeOfferState, "status" | "expires_at">, now: Date = new Date()): boolean {
  return offer.status === "pending" && Date.parse(offer.expires_at) <= now.getTime();
}

export function displayStatus(offer: Pick<TradeOfferState, "status" | "expires_at">, now: Date = new Date()): TradeDisplayStatus {
  return isExpired(offer, now) ? "expired" : offer.status;
}

export function roleOf(offer: Pick<TradeOfferState, "from_user_id" | "to_user_id">, userId: string): TradeRole | null {
  if (offer.from_user_id === userId) return "sender";
  if (offer.to_user_id === userId) return "recipient";
  return null;
}

/** The transition `action` would take for this viewer now, or null when the lifecycle forbids it. */
export function transitionFor(offer: TradeOfferState, userId: string, action: TradeAction, now: Date = new Date()): TradeTransition | null {
  const role = roleOf(offer, userId);
  if (!role || isExpired(offer, now)) return null;
  return findTransition(TRADE_TRANSITIONS, action, offer.status, role);
}

/**
 * The buttons a party gets on an offer card. `confirmedByMe`: this party has already confirmed the
 * handover (they wait for the other one).
 */
export function tradeActionsFor(offer: TradeOfferState, userId: string, now: Date = new Date(), confirmedByMe = false): TradeAction[] {
  return TRADE_ACTIONS.filter((action) => transitionFor(offer, userId, action, now) && !(action === "confirm" && confirmedByMe));
}

/** The pending badge's time left (docs/product.md "States"): "{n}t igjen" under 24 hours, otherwise "{n}d igjen". */
export function timeLeftLabel(expiresAt: string, now: Date = new Date()): string {
  const left = Date.parse(expiresAt) - now.getTime();
  if (left < DAY_MS) return `${Math.max(1, Math.ceil(left / HOUR_MS))}t igjen`;
  // A fresh offer says "7d igjen", one with 1 day and 13 hours left "2d igjen".
  return `${Math.round(left / DAY_MS)}d igjen`;
}

// ---- texts -------------------------------------------------------------------------------------

/** System messages in the conversation (from "Lekebytte"); they carry no names, as both parties read them. */
export const TRADE_CHAT_TEXTS = {
  created: (offeredTitle: string, requestedTitle: string) => `Nytt bytteforslag: «${offeredTitle}» mot «${requestedTitle}».`,
  accepted: "Bytteforslaget er akseptert. Dere kan nå avtale videre detaljer. Bekreft overleveringen her når dere har byttet.",
  rejected: "Bytteforslaget er avslått.",
  withdrawn: "Bytteforslaget er trukket tilbake.",
  cancelled: "Byttet er avbrutt, og begge annonsene er aktive igjen.",
  completed: "Byttet er fullført! Begge har bekreftet overleveringen.",
  superseded: "Bytteforslaget er avbrutt fordi en av lekene er lovet bort i et annet bytte.",
} as const;

/** What the Worker answers when an offer cannot be made or moved (409 unless noted). */
export const TRADE_ERROR_TEXTS = {
  offerNotFound: "Bytteforslaget finnes ikke.", // 404, also to anyone who is not a party
  listingNotFound: "Annonse ikke funnet", // 404
  ownListing: "Du kan ikke foreslå bytte på din egen annonse", // 403
  notOpenForTrade: "Denne annonsen er ikke åpen for bytte.",
  requestedUnavailable: "Annonsen er ikke lenger tilgjengelig for bytte.",
  requestedPromised: "Annonsen er allerede lovet bort i et annet bytte.",
  offeredNotOwn: "Velg en av dine egne aktive annonser.", // 400
  offeredUnavailable: "Leken du tilbyr er ikke aktiv lenger.",
  offeredPromised: "Leken du tilbyr er allerede lovet bort i et annet bytte.",
  duplicate: "Du har allerede sendt dette bytteforslaget. Vent på svar fra selgeren.",
  onlyRecipientAnswers: "Bare mottakeren kan svare på bytteforslaget.", // 403
  onlySenderWithdraws: "Bare den som sendte bytteforslaget, kan trekke det tilbake. Du kan avslå det.", // 403
  expired: "Bytteforslaget har utløpt.",
  alreadyAnswered: "Bytteforslaget er allerede besvart.",
  notAccepted: "Byttet er ikke avtalt, så det er ingen overlevering å bekrefte.",
  alreadyCompleted: "Byttet er allerede fullført.",
  alreadyCancelled: "Byttet er allerede avbrutt.",
  listingsUnavailable: "En av lekene er ikke lenger tilgjengelig for bytte.",
  concurrent: "Bytteforslaget ble endret samtidig. Last siden på nytt.",
  listingPromised: "Annonsen er med i et avtalt bytte. Avbryt byttet i samtalen først.",
} as const;

// ---- what the API answers -----------------------------------------------------------------------

/** A listing as an offer card and the trade history show it (images empty when deleted or hidden). */
export interface TradeListing extends ConversationListing {
  seo_slug: string;
}

export interface TradeParty {
  id: string;
  /** Display name, "Anonym" without one, "Slettet bruker" after the account was deleted. */
  display_name: string;
  deleted: boolean;
}

/** An offer as one of its two parties sees it (chat cards, "Sendt" and "Mottatt"). */
export interface TradeOfferView extends TradeOfferState {
  id: string;
  conversation_id: string;
  message: string | null;
  created_at: string;
  updated_at: string;
  /** The party who is not the viewer. */
  other_user: TradeParty;
  offered_listing: TradeListing;
  requested_listing: TradeListing;
  /** From the accept on: who has confirmed the handover, and when the trade was completed. */
  handover: { confirmed_by_me: boolean; confirmed_by_other: boolean; completed_at: string | null } | null;
}

/** A completed trade ("Fullført"): "Bytte med {name}", "Din leke", "Deres leke". */
export interface CompletedTrade {
  id: string;
  trade_offer_id: string;
  conversation_id: string;
  other_user: TradeParty;
  my_listing: TradeListing;
  their_listing: TradeListing;
  created_at: string;
  completed_at: string;
  /** The user has reviewed the other party for this trade (decision 070). */
  reviewed_by_me: boolean;
}

export interface TradeHistoryCounts {
  sent: number;
  received: number;
  completed: number;
}

export interface TradeHistoryPage<T> {
  counts: TradeHistoryCounts;
  items: T[];
  has_more: boolean;
}

/** GET /api/trade-offers/proposal/:listingId: the page "Foreslå bytte". */
export interface TradeProposal {
  listing: TradeListing & { owner_name: string };
  /** The sender's own tradable listings, newest first. */
  own_listings: (TradeListing & { already_offered: boolean })[];
}
