// "Send med posten" (docs/decisions/145-shipping-rules.md): the lifecycle of a sent order's parcel,
// beside the held money's (domain/orders.ts), in the same shape: its states, who may move it,
// every refusal in Norwegian, how the carriers' tracking codes move it, the times and the texts.
// The money stays the order's: a shipment's state only tells the order what happened.

import { type Carrier, type DeliveryMethod, type ParcelSize, TRACKING_CODES, type TrackingAction, trackingAction } from "./carriers";
import { findTransition, type Lifecycle } from "./lifecycle";
import { osloTime } from "./oslo-clock";
import { AUTO_RELEASE_HOURS, autoReleaseAt, type OrderState } from "./orders";
import { ORDER_TEXTS } from "./order-texts";
import { platformFee } from "./payments";

export const SHIPMENT_STATES = [
  "booking",
  "booked",
  "booking_failed",
  "dropped_off",
  "in_transit",
  "ready_for_pickup",
  "delivered",
  "lost",
  "returned",
  "cancelled",
] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

/**
 * The order's buyer and seller; the carrier (its tracking webhooks, verified); a moderator; and
 * the Worker itself (the booking call, the cron's deadline and lost-parcel checks, a refunded order).
 */
export const SHIPMENT_ACTORS = ["buyer", "seller", "carrier", "moderator", "system"] as const;
export type ShipmentActor = (typeof SHIPMENT_ACTORS)[number];

export type ShipmentAction = "book" | "fail_booking" | "retry_booking" | TrackingAction | "declare_lost" | "expire" | "cancel";

/**
 * booking (paid; the Worker books with the carrier, retrying until it answers) → booked (the seller
 * has the code and the deadline) or booking_failed (the carrier refused; the money stays held and
 * the seller is told what to do, then either side retries). The carrier's events then move it on:
 * dropped_off → in_transit → ready_for_pickup → delivered, skipping any it never sends, never back.
 * Not handed in by the deadline (counted from payment): cancelled, and the order refunded in full.
 * No event for LOST_AFTER_DAYS after the drop-off: lost, a case for moderators; a later event means
 * the parcel was found and moves it on. A parcel sent back (not collected, or undeliverable): returned,
 * a case too. A moderator deciding a case, or a refund of the order, cancels a parcel not yet handed in.
 * Delivered, returned and cancelled are final.
 */
export const SHIPMENT_TRANSITIONS: Lifecycle<ShipmentAction, ShipmentState, ShipmentActor> = {
  book: [{ from: "booking", by: ["system"], to: "booked" }],
  fail_booking: [{ from: "booking", by: ["system"], to: "booking_failed" }],
  retry_booking: [{ from: "booking_failed", by: ["seller", "buyer"], to: "booking" }],
  drop_off: [{ from: "booked", by: ["carrier"], to: "dropped_off" }],
  transit: [
    { from: "booked", by: ["carrier"], to: "in_transit" },
    { from: "dropped_off", by: ["carrier"], to: "in_transit" },
    { from: "lost", by: ["carrier"], to: "in_transit" },
  ],
  arrive: [
    { from: "booked", by: ["carrier"], to: "ready_for_pickup" },
    { from: "dropped_off", by: ["carrier"], to: "ready_for_pickup" },
    { from: "in_transit", by: ["carrier"], to: "ready_for_pickup" },
    { from: "lost", by: ["carrier"], to: "ready_for_pickup" },
  ],
  deliver: [
    { from: "booked", by: ["carrier"], to: "delivered" },
    { from: "dropped_off", by: ["carrier"], to: "delivered" },
    { from: "in_transit", by: ["carrier"], to: "delivered" },
    { from: "ready_for_pickup", by: ["carrier"], to: "delivered" },
    { from: "lost", by: ["carrier"], to: "delivered" },
  ],
  return_to_sender: [
    { from: "dropped_off", by: ["carrier"], to: "returned" },
    { from: "in_transit", by: ["carrier"], to: "returned" },
    { from: "ready_for_pickup", by: ["carrier"], to: "returned" },
    { from: "lost", by: ["carrier"], to: "returned" },
  ],
  declare_lost: [
    { from: "dropped_off", by: ["system", "moderator"], to: "lost" },
    { from: "in_transit", by: ["system", "moderator"], to: "lost" },
  ],
  expire: [
    { from: "booking", by: ["system"], to: "cancelled" },
    { from: "booked", by: ["system"], to: "cancelled" },
    { from: "booking_failed", by: ["system"], to: "cancelled" },
  ],
  cancel: [
    { from: "booking", by: ["moderator", "system"], to: "cancelled" },
    { from: "booked", by: ["moderator", "system"], to: "cancelled" },
    { from: "booking_failed", by: ["moderator", "system"], to: "cancelled" },
  ],
};

export const SHIPMENT_ACTIONS = Object.keys(SHIPMENT_TRANSITIONS) as ShipmentAction[];

const FINAL_STATES: readonly ShipmentState[] = ["delivered", "returned", "cancelled"];

/** Nothing moves the parcel any more (a carrier's later event is ignored). */
export function isFinalShipmentState(state: ShipmentState): boolean {
  return FINAL_STATES.includes(state);
}

/**
 * Where the order's held money goes when its parcel reaches a state (the Worker moves it in the
 * same batch): delivered starts the buyer's 48 hours as a handover does, a lost or returned parcel
 * is a case for moderators, a cancelled shipment gives everything back.
 */
export const ORDER_STATE_AFTER: Partial<Record<ShipmentState, OrderState>> = {
  delivered: "handed_over",
  lost: "problem",
  returned: "problem",
  cancelled: "cancelled",
};

// ---- refusals ----------------------------------------------------------------------------------

const FINAL = {
  delivered: "Pakken er allerede levert.",
  returned: "Pakken er sendt tilbake til selgeren.",
  cancelled: "Sendingen er avbrutt, og pengene er betalt tilbake til kjøperen.",
} as const;
const NOT_BOOKED = { booking: "Frakten er ikke bestilt ennå.", booking_failed: "Frakten kunne ikke bestilles." } as const;
const HANDED_IN = {
  dropped_off: "Pakken er allerede levert inn.",
  in_transit: "Pakken er allerede på vei.",
  ready_for_pickup: "Pakken er allerede klar til henting.",
  lost: "Pakken er meldt savnet. En moderator ser på saken.",
} as const;
const NOT_HANDED_IN = "Pakken er ikke levert inn ennå.";
const BOOKED = "Frakten er allerede bestilt.";
const BOOKING_REFUSED = "Fraktselskapet avviste bestillingen. Den må bestilles på nytt.";

/**
 * Every cell of the table: per action, the text for an actor who may never take it (403), and per
 * state the text for the right actor in a state it does not start from (409). `null` marks the states
 * the action starts from. A carrier's refused event is acknowledged and ignored (`trackingMove`).
 */
export const SHIPMENT_REFUSALS: Record<ShipmentAction, { wrongActor: string; byState: Record<ShipmentState, string | null> }> = {
  book: {
    wrongActor: "Frakten bestilles automatisk når kjøpet er betalt.",
    byState: { booking: null, booked: BOOKED, booking_failed: BOOKING_REFUSED, ...HANDED_IN, ...FINAL },
  },
  fail_booking: {
    wrongActor: "Bare fraktselskapet kan avvise en bestilling.",
    byState: { booking: null, booked: BOOKED, booking_failed: BOOKING_REFUSED, ...HANDED_IN, ...FINAL },
  },
  retry_booking: {
    wrongActor: "Bare kjøperen og selgeren kan bestille frakten på nytt.",
    byState: { booking: "Frakten bestilles nå. Vent litt.", booked: BOOKED, booking_failed: null, ...HANDED_IN, ...FINAL },
  },
  drop_off: {
    wrongActor: "Bare fraktselskapet kan registrere at pakken er levert inn.",
    byState: { ...NOT_BOOKED, booked: null, ...HANDED_IN, ...FINAL },
  },
  transit: {
    wrongActor: "Bare fraktselskapet kan registrere at pakken er på vei.",
    byState: { ...NOT_BOOKED, ...HANDED_IN, booked: null, dropped_off: null, lost: null, ...FINAL },
  },
  arrive: {
    wrongActor: "Bare fraktselskapet kan registrere at pakken er klar til henting.",
    byState: { ...NOT_BOOKED, ...HANDED_IN, booked: null, dropped_off: null, in_transit: null, lost: null, ...FINAL },
  },
  deliver: {
    wrongActor: "Bare fraktselskapet kan registrere at pakken er levert.",
    byState: { ...NOT_BOOKED, booked: null, dropped_off: null, in_transit: null, ready_for_pickup: null, lost: null, ...FINAL },
  },
  return_to_sender: {
    wrongActor: "Bare fraktselskapet kan sende pakken tilbake til selgeren.",
    byState: { ...NOT_BOOKED, booked: NOT_HANDED_IN, dropped_off: null, in_transit: null, ready_for_pickup: null, lost: null, ...FINAL },
  },
  declare_lost: {
    wrongActor: "Bare en moderator kan melde pakken savnet.",
    byState: {
      ...NOT_BOOKED,
      booked: NOT_HANDED_IN,
      dropped_off: null,
      in_transit: null,
      ready_for_pickup: "Pakken er klar til henting, så den er ikke savnet.",
      lost: "Pakken er allerede meldt savnet.",
      ...FINAL,
    },
  },
  expire: {
    wrongActor: "Sendingen avbrytes automatisk når fristen for innlevering er ute.",
    byState: { ...HANDED_IN, booking: null, booked: null, booking_failed: null, ...FINAL },
  },
  cancel: {
    wrongActor: "Bare en moderator kan avbryte sendingen.",
    byState: { ...HANDED_IN, booking: null, booked: null, booking_failed: null, ...FINAL },
  },
};

export type ShipmentMoveResult = { ok: true; to: ShipmentState } | { ok: false; status: 403 | 409; message: string };

/** What `action` by `actor` does to a parcel in `state`: the state after it, or the refusal to answer. */
export function shipmentMove(state: ShipmentState, actor: ShipmentActor, action: ShipmentAction): ShipmentMoveResult {
  const transition = findTransition(SHIPMENT_TRANSITIONS, action, state, actor);
  if (transition) return { ok: true, to: transition.to };
  const refusals = SHIPMENT_REFUSALS[action];
  if (!SHIPMENT_TRANSITIONS[action].some((t) => t.by.includes(actor))) return { ok: false, status: 403, message: refusals.wrongActor };
  return { ok: false, status: 409, message: refusals.byState[state] ?? refusals.wrongActor };
}

/** The actions a party gets buttons for now (time rules aside: the Worker checks those). */
export function shipmentActionsFor(state: ShipmentState, actor: ShipmentActor): ShipmentAction[] {
  return SHIPMENT_ACTIONS.filter((action) => findTransition(SHIPMENT_TRANSITIONS, action, state, actor));
}

export type TrackingMove =
  | { moved: true; action: TrackingAction; to: ShipmentState }
  /** unknown: a code not in the table; silent: known, moves nothing; stale: the parcel is already past it. */
  | { moved: false; ignored: "unknown" | "silent" | "stale" };

/**
 * A verified tracking event for a parcel in `state`. Webhooks come late, twice and out of order, so
 * an event the table does not allow from here (an IN_TRANSIT after DELIVERED, anything after a final
 * state) is stale: acknowledged and ignored, never moving the parcel back.
 */
export function trackingMove(state: ShipmentState, carrier: Carrier, code: string): TrackingMove {
  if (!Object.hasOwn(TRACKING_CODES[carrier], code)) return { moved: false, ignored: "unknown" };
  const action = trackingAction(carrier, code);
  if (!action) return { moved: false, ignored: "silent" };
  const move = shipmentMove(state, "carrier", action);
  return move.ok ? { moved: true, action, to: move.to } : { moved: false, ignored: "stale" };
}

// ---- times -------------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days after payment to hand the parcel in, the day of payment not counted (Oslo calendar days). */
export const DROP_OFF_DAYS = 7;
/** Days without any tracking event, once handed in, before the parcel counts as lost. */
export const LOST_AFTER_DAYS = 10;
/** The buyer's time after "Pakken er levert" before the money is released: the handover's 48 hours. */
export const DELIVERED_RELEASE_HOURS = AUTO_RELEASE_HOURS;

/** The instant Oslo's clock shows 00:00 on this date (23:00 or 22:00 UTC the day before). */
function osloMidnight(year: number, month: number, day: number): number {
  const winter = Date.UTC(year, month - 1, day) - HOUR_MS;
  return osloTime(new Date(winter)).hour === 0 ? winter : winter - HOUR_MS;
}

/**
 * The last moment to hand the parcel in: the end of the Oslo day DROP_OFF_DAYS after the day of
 * payment, so "Lever pakken innen {dato}" names a whole day. The cron cancels after it.
 */
export function dropOffDeadline(paidAt: string): string {
  const paid = osloTime(new Date(paidAt));
  const next = new Date(Date.UTC(paid.year, paid.month - 1, paid.day + DROP_OFF_DAYS + 1));
  return new Date(osloMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()) - 1).toISOString();
}

/** When the cron declares the parcel lost if the carrier has said nothing since `lastEventAt`. */
export function lostAt(lastEventAt: string): string {
  return new Date(Date.parse(lastEventAt) + LOST_AFTER_DAYS * DAY_MS).toISOString();
}

/**
 * When the money is released after delivery: 48 hours from when Lekebytte received the DELIVERED
 * event (and told the buyer), not from the carrier's own timestamp, so a late webhook never
 * shortens the buyer's time.
 */
export function deliveredReleaseAt(deliveredNoticeAt: string): string {
  return autoReleaseAt(deliveredNoticeAt);
}

// ---- money -------------------------------------------------------------------------------------

/**
 * One payment holds the toy and the shipping. On release the seller gets the toy less the
 * platform fee (taken on the toy only), and the shipping pays the carrier's invoice; a refund
 * before release gives both back.
 */
export function shippingSplit(toyOre: number, shippingOre: number, feeBasisPoints: number) {
  const fee = platformFee(toyOre, feeBasisPoints);
  return { total: toyOre + shippingOre, toSeller: toyOre - fee, fee, toCarrier: shippingOre };
}

// ---- texts -------------------------------------------------------------------------------------

/** What the parents read (the product's words). */
export const SHIPMENT_TEXTS = {
  dropOffCode: (code: string) => `Sendekode: ${code}`,
  dropOffBy: (date: string) => `Lever pakken innen ${date}`,
  reportProblem: ORDER_TEXTS.reportProblem,
  released: ORDER_TEXTS.released,
  /** The seller, when the carrier refused the booking (the money stays held). */
  bookingFailedSeller: "Vi fikk ikke bestilt frakten. Sjekk at adressen og telefonnummeret på profilen din stemmer, og trykk «Prøv igjen».",
  bookingFailedBuyer: "Vi fikk ikke bestilt frakten ennå. Pengene holdes trygt, og du får pengene tilbake hvis pakken ikke sendes.",
  retryBooking: "Prøv igjen",
} as const;

/** The short state on the deal's card and in the chat as the parcel moves. */
export const SHIPMENT_STATE_LABELS: Record<ShipmentState, string> = {
  booking: "Frakten bestilles",
  booked: "Venter på innlevering",
  booking_failed: "Frakten kunne ikke bestilles",
  dropped_off: "Pakken er levert inn",
  in_transit: "Pakken er på vei",
  ready_for_pickup: "Pakken er klar til henting",
  delivered: "Pakken er levert",
  lost: "Pakken er savnet",
  returned: "Pakken er sendt tilbake",
  cancelled: "Sendingen er avbrutt",
};

/** System messages in the deal's chat when the parcel's state changes without a party acting. */
export const SHIPMENT_CHAT_TEXTS = {
  expired:
    "Pakken ble ikke levert inn innen fristen. Kjøpet er avbrutt, pengene for leken og frakten er betalt tilbake, og annonsen er ledig igjen.",
  delivered: (date: string) =>
    `Pakken er levert. Kjøperen kan bekrefte med «Jeg har fått varen» eller melde fra om et problem. Ellers utbetales pengene automatisk ${date}.`,
  lost: `Vi har ikke hørt fra fraktselskapet på ${LOST_AFTER_DAYS} dager. En moderator ser på saken, og pengene holdes så lenge.`,
  returned: "Pakken er på vei tilbake til selgeren. En moderator ser på saken, og pengene holdes så lenge.",
} as const;

// ---- what the API answers -----------------------------------------------------------------------

/** A sent order's parcel as its buyer or seller (or a moderator in a case) sees it, on OrderView. */
export interface ShipmentView {
  carrier: Carrier;
  delivery: DeliveryMethod;
  parcel_size: ParcelSize;
  state: ShipmentState;
  /** Øre: the toy's price and the shipping, paid together (the order's amount is their sum). */
  toy_price: number;
  shipping_price: number;
  /** The chosen pickup point or parcel locker; null for the mailbox. */
  pickup_point: { name: string; address: string } | null;
  /** Where the parcel goes, as the buyer gave it at checkout. */
  recipient: { name: string; address_line: string; postal_code: string; city: string };
  /** The carrier's number once booked (tracking). */
  shipment_number: string | null;
  /** "Sendekode: {kode}": what the seller writes on the parcel; the seller's only (null to others). */
  drop_off_code: string | null;
  /** ISO: the end of the last day to hand the parcel in ("Lever pakken innen {dato}"). */
  drop_off_deadline: string;
  /** The carrier's refusal of the booking (booking_failed), seller only: what to fix before "Prøv igjen". */
  booking_error: string | null;
  /** This viewer may press "Prøv igjen" (POST /api/payments/orders/:id/shipment/retry). */
  can_retry: boolean;
}

/** The shipment-booking queue's message: book the parcel of this paid order. */
export interface ShipmentBookingMessage {
  order_id: string;
}
