// Trygg betaling (docs/decisions/105-held-payments.md): a paid order's money is held by
// Lekebytte until the buyer has the toy, then released to the seller or given back. This is the
// lifecycle of that money: its states, who may move it, every refusal in Norwegian, the times and
// the texts both sides read. The Worker enforces it with conditional updates
// (worker/features/payments/orders.ts); the web shows each party the buttons it allows.

import type { HandoverMode } from "./carriers";
import { findTransition, type Lifecycle, type Transition } from "./lifecycle";

export const ORDER_STATES = ["held", "handed_over", "problem", "released", "refunded", "partially_refunded", "cancelled"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The buyer and the seller of the order, a moderator deciding a case, and the Worker itself (cron, account deletion). */
export const ORDER_ACTORS = ["buyer", "seller", "moderator", "system"] as const;
export type OrderActor = (typeof ORDER_ACTORS)[number];

export type OrderAction =
  | "mark_handed_over"
  | "confirm_received"
  | "report_problem"
  | "cancel_no_handover"
  | "auto_release"
  | "refund"
  | "partial_refund"
  | "release_by_moderator"
  | "seller_account_deleted"
  | "parcel_delivered"
  | "parcel_case"
  | "parcel_not_handed_in";

export type OrderTransition = Transition<OrderState, OrderActor>;

/**
 * held → handed_over (seller) → released (buyer confirms, or the cron 48 hours later). The buyer may
 * confirm straight from held, report a problem before release (a case for moderators, who refund in
 * full or in part, or release), or cancel from held once 7 days have passed without a handover. A
 * seller who deletes the account before release gives the money back. A sent toy's parcel
 * (domain/shipping.ts ORDER_STATE_AFTER) moves it by the Worker: the carrier's delivered is the
 * handover, a lost or returned parcel opens a case, a parcel not handed in by its deadline cancels.
 * Released, refunded, partially_refunded and cancelled are final: the money has been moved.
 */
export const ORDER_TRANSITIONS: Lifecycle<OrderAction, OrderState, OrderActor> = {
  mark_handed_over: [{ from: "held", by: ["seller"], to: "handed_over" }],
  confirm_received: [
    { from: "held", by: ["buyer"], to: "released" },
    { from: "handed_over", by: ["buyer"], to: "released" },
  ],
  report_problem: [
    { from: "held", by: ["buyer"], to: "problem" },
    { from: "handed_over", by: ["buyer"], to: "problem" },
  ],
  cancel_no_handover: [{ from: "held", by: ["buyer"], to: "cancelled" }],
  auto_release: [{ from: "handed_over", by: ["system"], to: "released" }],
  refund: [{ from: "problem", by: ["moderator"], to: "refunded" }],
  partial_refund: [{ from: "problem", by: ["moderator"], to: "partially_refunded" }],
  release_by_moderator: [{ from: "problem", by: ["moderator"], to: "released" }],
  seller_account_deleted: [
    { from: "held", by: ["system"], to: "refunded" },
    { from: "handed_over", by: ["system"], to: "refunded" },
    { from: "problem", by: ["system"], to: "refunded" },
  ],
  parcel_delivered: [{ from: "held", by: ["system"], to: "handed_over" }],
  parcel_case: [
    { from: "held", by: ["system"], to: "problem" },
    { from: "handed_over", by: ["system"], to: "problem" },
  ],
  parcel_not_handed_in: [{ from: "held", by: ["system"], to: "cancelled" }],
};

export const ORDER_ACTIONS = Object.keys(ORDER_TRANSITIONS) as OrderAction[];

const FINAL_STATES: readonly OrderState[] = ["released", "refunded", "partially_refunded", "cancelled"];

/** The money has been moved (or is being moved): nothing can change it any more. */
export function isFinalOrderState(state: OrderState): boolean {
  return FINAL_STATES.includes(state);
}

/** The buyer gets all the money back: the listing is for sale again. */
export function isFullRefund(state: OrderState): boolean {
  return state === "refunded" || state === "cancelled";
}

// ---- refusals ----------------------------------------------------------------------------------

const ALREADY = {
  released: "Pengene er allerede utbetalt til selger.",
  refunded: "Pengene er allerede betalt tilbake til kjøperen.",
  cancelled: "Kjøpet er avbrutt, og pengene er betalt tilbake til kjøperen.",
  partially_refunded: "Saken er avgjort: en del av pengene er betalt tilbake, og resten er utbetalt til selger.",
} as const;
const NO_CASE = "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.";
const CASE_OPEN_BUYER = "Du har meldt fra om et problem. En moderator ser på saken og avgjør hva som skjer med pengene.";
const CASE_OPEN = "Kjøperen har meldt fra om et problem. En moderator ser på saken.";
const NOT_SHIPPED = "Dette kjøpet sendes ikke med posten, så det er ingen pakke å følge.";

/**
 * Every cell of the table: per action, the text for an actor who may never take it (403), and per
 * state the text for the right actor in a state it does not start from (409). `null` marks the
 * states the action starts from (tests/unit/orders-domain.test.ts checks that they match).
 */
export const ORDER_REFUSALS: Record<OrderAction, { wrongActor: string; byState: Record<OrderState, string | null> }> = {
  mark_handed_over: {
    wrongActor: "Bare selgeren kan markere varen som overlevert.",
    byState: {
      held: null,
      handed_over: "Du har allerede markert varen som overlevert.",
      problem: CASE_OPEN,
      ...ALREADY,
    },
  },
  confirm_received: {
    wrongActor: "Bare kjøperen kan bekrefte at varen er mottatt.",
    byState: { held: null, handed_over: null, problem: CASE_OPEN_BUYER, ...ALREADY },
  },
  report_problem: {
    wrongActor: "Bare kjøperen kan melde fra om et problem med kjøpet.",
    byState: { held: null, handed_over: null, problem: "Du har allerede meldt fra om et problem. En moderator ser på saken.", ...ALREADY },
  },
  cancel_no_handover: {
    wrongActor: "Bare kjøperen kan avbryte kjøpet.",
    byState: {
      held: null,
      handed_over:
        "Selgeren har markert varen som overlevert, så kjøpet kan ikke avbrytes. Meld fra om et problem hvis du ikke har fått varen.",
      problem: CASE_OPEN_BUYER,
      ...ALREADY,
    },
  },
  auto_release: {
    wrongActor: "Pengene utbetales automatisk; det kan ikke gjøres for hånd.",
    byState: {
      held: "Selgeren har ikke markert varen som overlevert ennå.",
      handed_over: null,
      problem: "Kjøperen har meldt fra om et problem, så pengene utbetales ikke automatisk.",
      ...ALREADY,
    },
  },
  refund: {
    wrongActor: "Bare en moderator kan betale pengene tilbake.",
    byState: { held: NO_CASE, handed_over: NO_CASE, problem: null, ...ALREADY },
  },
  partial_refund: {
    wrongActor: "Bare en moderator kan betale pengene tilbake.",
    byState: { held: NO_CASE, handed_over: NO_CASE, problem: null, ...ALREADY },
  },
  release_by_moderator: {
    wrongActor: "Bare en moderator kan utbetale pengene i en sak.",
    byState: { held: NO_CASE, handed_over: NO_CASE, problem: null, ...ALREADY },
  },
  seller_account_deleted: {
    wrongActor: "Dette skjer bare når selgeren sletter kontoen sin.",
    byState: { held: null, handed_over: null, problem: null, ...ALREADY },
  },
  parcel_delivered: {
    wrongActor: "Pakken registreres som levert når fraktselskapet melder det; det kan ikke gjøres for hånd.",
    byState: { held: null, handed_over: "Varen er allerede markert som overlevert.", problem: CASE_OPEN, ...ALREADY },
  },
  parcel_case: {
    wrongActor: "En sak om pakken åpnes automatisk når den er savnet eller sendt tilbake.",
    byState: { held: null, handed_over: null, problem: "Det er allerede en sak om kjøpet. En moderator ser på saken.", ...ALREADY },
  },
  parcel_not_handed_in: {
    wrongActor: "Kjøpet avbrytes automatisk når pakken ikke er levert inn innen fristen.",
    byState: {
      held: null,
      handed_over: "Varen er allerede overlevert, så kjøpet kan ikke avbrytes.",
      problem: CASE_OPEN,
      ...ALREADY,
    },
  },
};

/**
 * How the toy changes hands decides which of the table's actions an order has (decision 153). A sent
 * order follows its parcel: the carrier's DELIVERED is its handover (`parcel_delivered`) and the
 * parcel's drop-off deadline its cancellation (`parcel_not_handed_in`, the cron's expiry), so the
 * seller's "Overlevert til kjøper" and the buyer's "Avbryt kjøpet" are refused; an order handed over
 * in person has no parcel to move it. Every other action, "Jeg har fått varen" included, is the same
 * for both. The mode is fixed when the order is paid (its shipment is written in the paid batch).
 */
export const HANDOVER_ONLY: Partial<Record<OrderAction, { mode: HandoverMode; refusal: string }>> = {
  mark_handed_over: { mode: "in_person", refusal: "Fraktselskapet melder når pakken er levert." },
  cancel_no_handover: {
    mode: "in_person",
    refusal: "Kjøpet avbrytes automatisk, og du får pengene tilbake, hvis selgeren ikke leverer inn pakken innen fristen.",
  },
  parcel_delivered: { mode: "shipping", refusal: NOT_SHIPPED },
  parcel_case: { mode: "shipping", refusal: NOT_SHIPPED },
  parcel_not_handed_in: { mode: "shipping", refusal: NOT_SHIPPED },
};

/** The refusal of an action the order's mode does not have, or null. In a case or once decided, the state's own text says more. */
function handoverRefusalOf(state: OrderState, action: OrderAction, handover: HandoverMode): string | null {
  const only = HANDOVER_ONLY[action];
  if (!only || only.mode === handover) return null;
  return state === "held" || state === "handed_over" ? only.refusal : null;
}

export type OrderMoveResult = { ok: true; to: OrderState } | { ok: false; status: 403 | 409; message: string };

/** What `action` by `actor` does to the money of an order handed over `handover` in `state`: the state after it, or the refusal to answer. */
export function orderMove(state: OrderState, actor: OrderActor, action: OrderAction, handover: HandoverMode): OrderMoveResult {
  const refusals = ORDER_REFUSALS[action];
  if (!ORDER_TRANSITIONS[action].some((t) => t.by.includes(actor))) return { ok: false, status: 403, message: refusals.wrongActor };
  const wrongMode = handoverRefusalOf(state, action, handover);
  if (wrongMode) return { ok: false, status: 409, message: wrongMode };
  const transition = findTransition(ORDER_TRANSITIONS, action, state, actor);
  if (transition) return { ok: true, to: transition.to };
  return { ok: false, status: 409, message: refusals.byState[state] ?? refusals.wrongActor };
}

/** The actions a party gets buttons for now (time rules aside: the Worker checks those). */
export function orderActionsFor(state: OrderState, actor: OrderActor, handover: HandoverMode): OrderAction[] {
  return ORDER_ACTIONS.filter((action) => orderMove(state, actor, action, handover).ok);
}

// ---- times -------------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;
export const AUTO_RELEASE_HOURS = 48;
export const REMINDER_HOURS_BEFORE = 24;
export const CANCEL_AFTER_DAYS = 7;

/** When the cron releases the money if the buyer has not answered. */
export function autoReleaseAt(handedOverAt: string): string {
  return new Date(Date.parse(handedOverAt) + AUTO_RELEASE_HOURS * HOUR_MS).toISOString();
}

/** When the buyer is reminded by e-mail that the money will be released. */
export function reminderAt(releaseAt: string): string {
  return new Date(Date.parse(releaseAt) - REMINDER_HOURS_BEFORE * HOUR_MS).toISOString();
}

/** From when the buyer may cancel a purchase the seller has not handed over. */
export function cancelAllowedFrom(paidAt: string): string {
  return new Date(Date.parse(paidAt) + CANCEL_AFTER_DAYS * 24 * HOUR_MS).toISOString();
}

/**
 * A partial refund: the rest goes to the seller, and the platform fee (decision 033) is taken in
 * proportion to what is released, so the buyer never pays a fee on money given back.
 */
export function partialPayout(amount: number, refund: number, fee: number): { payout: number; fee: number } {
  const released = amount - refund;
  const keptFee = Math.min(released, Math.round((fee * released) / amount));
  return { payout: released - keptFee, fee: keptFee };
}

/**
 * What a decided order moves, in øre: back to the buyer, to the seller, and captured (a Vipps
 * reservation). The shipping a sent toy's payment holds is never the seller's: on release it pays
 * the carrier's invoice, and a partial refund comes out of the toy's price before the shipping
 * (decisions 145, 150). `shipping` is 0 for a toy picked up.
 */
export function orderMoney(
  state: OrderState,
  o: { amount: number; shipping: number; refund: number; fee: number },
): { refund: number; payout: number; capture: number } {
  const toy = o.amount - o.shipping;
  switch (state) {
    case "released":
      return { refund: 0, payout: toy - o.fee, capture: o.amount };
    case "partially_refunded": {
      const { payout } = partialPayout(toy, Math.min(o.refund, toy), o.fee);
      return { refund: o.refund, payout, capture: o.amount - o.refund };
    }
    default:
      return { refund: o.amount, payout: 0, capture: 0 };
  }
}
