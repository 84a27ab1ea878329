// "Send med posten" (docs/decisions/145-shipping-rules.md): how a listing can change hands, the
// parcel sizes, the carriers and what each delivers at which price, and how a carrier's tracking
// codes become moves of a shipment (domain/shipping.ts). No imports but the labels' re-export from
// domain/taxonomy.ts: the listing card reads them, and it must not pull the shipment's lifecycle
// along (decision 102).

/** How a toy can change hands. A listing offers one or both; the buyer picks one at checkout. */
export const HANDOVER_MODES = ["in_person", "shipping"] as const;
export type HandoverMode = (typeof HANDOVER_MODES)[number];

/** A listing's stored yes/no columns as the modes it offers, in HANDOVER_MODES' order. */
export function handoverModes(canPickUp: boolean, canShip: boolean): HandoverMode[] {
  return HANDOVER_MODES.filter((mode) => (mode === "in_person" ? canPickUp : canShip));
}

/** The buyer's choice at checkout. */
export const HANDOVER_CHECKOUT_LABELS: Record<HandoverMode, string> = { in_person: "Henting", shipping: "Sending" };

export const PARCEL_SIZES = ["small", "medium", "large"] as const;
export type ParcelSize = (typeof PARCEL_SIZES)[number];

export interface ParcelLimits {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
}

/**
 * Bring's C2C sizes (Small 2528, Medium 2529, Large 1377); the seller promises the parcel fits.
 * Small also fits Helthjem's mailbox (35 × 25 × 12 cm, 5 kg). Bring's Extra Large (120 × 60 × 60)
 * is left out: only its pickup points take it, and a toy that big is rarely sent.
 */
export const PARCEL_SIZE_LIMITS: Record<ParcelSize, ParcelLimits> = {
  small: { lengthCm: 35, widthCm: 25, heightCm: 11, weightKg: 5 },
  medium: { lengthCm: 45, widthCm: 30, heightCm: 15, weightKg: 5 },
  large: { lengthCm: 58, widthCm: 43, heightCm: 23, weightKg: 10 },
};

/** "Maks 35 × 25 × 11 cm og 5 kg" under the size in the wizard. */
export function parcelSizeHint(size: ParcelSize): string {
  const l = PARCEL_SIZE_LIMITS[size];
  return `Maks ${l.lengthCm} × ${l.widthCm} × ${l.heightCm} cm og ${l.weightKg} kg`;
}

export const CARRIERS = ["bring", "helthjem"] as const;
export type Carrier = (typeof CARRIERS)[number];

/** Parents know Bring's parcels as Posten's. */
export const CARRIER_LABELS: Record<Carrier, string> = { bring: "Posten", helthjem: "Helthjem" };

export const DELIVERY_METHODS = ["mailbox", "parcel_locker", "pickup_point"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DELIVERY_METHOD_LABELS: Record<DeliveryMethod, string> = {
  mailbox: "I postkassen",
  parcel_locker: "Pakkeautomat",
  pickup_point: "Hentested",
};

/** Working days from drop-off to delivery, as the carrier states them. */
export interface LeadDays {
  min: number;
  max: number;
}

interface MethodOffer {
  /** The carrier's product: Bring's C2C service code, Helthjem's product name. */
  service: string;
  leadDays: LeadDays;
  /** Price in øre (integers, like every amount sent to a provider), per size offered. */
  prices: Partial<Record<ParcelSize, number>>;
}

/**
 * What each carrier delivers, to where, for which size, at which price. Bring: 5900 mailbox takes
 * Small and Medium, 5901 locker up to Large, 5902 pickup point up to Extra Large. Helthjem: the
 * mailbox up to 35 × 25 × 12 cm and 5 kg, bigger parcels to a pickup point in a shop. Prices are
 * placeholders until an agreement with each carrier sets them (decision 145).
 */
export const SHIPPING_OFFERS: Record<Carrier, Partial<Record<DeliveryMethod, MethodOffer>>> = {
  bring: {
    mailbox: { service: "5900", leadDays: { min: 2, max: 4 }, prices: { small: 7_900, medium: 9_900 } },
    parcel_locker: { service: "5901", leadDays: { min: 2, max: 5 }, prices: { small: 6_900, medium: 8_900, large: 12_900 } },
    pickup_point: { service: "5902", leadDays: { min: 2, max: 5 }, prices: { small: 7_900, medium: 9_900, large: 13_900 } },
  },
  helthjem: {
    mailbox: { service: "helthjem-mailbox", leadDays: { min: 2, max: 4 }, prices: { small: 6_900 } },
    pickup_point: { service: "helthjem-pickup", leadDays: { min: 2, max: 5 }, prices: { small: 7_900, medium: 9_900, large: 12_900 } },
  },
};

export interface ShippingOffer {
  carrier: Carrier;
  method: DeliveryMethod;
  size: ParcelSize;
  service: string;
  priceOre: number;
  leadDays: LeadDays;
}

/** The offer for this carrier, method and size, or null when the carrier does not deliver it so. */
export function shippingOffer(carrier: Carrier, method: DeliveryMethod, size: ParcelSize): ShippingOffer | null {
  const offer = SHIPPING_OFFERS[carrier][method];
  const priceOre = offer?.prices[size];
  if (!offer || priceOre === undefined) return null;
  return { carrier, method, size, service: offer.service, priceOre, leadDays: offer.leadDays };
}

/** Every way a parcel of this size can be sent, cheapest first (the checkout's list). */
export function shippingOffersFor(size: ParcelSize): ShippingOffer[] {
  return CARRIERS.flatMap((carrier) => DELIVERY_METHODS.map((method) => shippingOffer(carrier, method, size)))
    .filter((o): o is ShippingOffer => o !== null)
    .sort((a, b) => a.priceOre - b.priceOre);
}

/** "2–4 virkedager" beside the offer. */
export function leadTimeText(days: LeadDays): string {
  return days.min === days.max ? `${days.min} virkedager` : `${days.min}–${days.max} virkedager`;
}

export const SHIPPING_CHOICE_REFUSALS = {
  noHandover: "Velg minst én måte: «Hentes» eller «Kan sendes».", // 400, the wizard
  noSize: "Velg hvor stor pakken er.", // 400, the wizard with «Kan sendes»
  notShipped: "Selgeren sender ikke denne leken. Velg «Henting».", // 409, checkout
  notOffered: "Denne leveringen finnes ikke for pakkestørrelsen. Velg en annen.", // 400, checkout
} as const;

export type ShippingChoiceResult = { ok: true; offer: ShippingOffer } | { ok: false; status: 400 | 409; message: string };

/** The buyer's "Sending" choice against what the listing offers: the offer to charge, or the refusal. */
export function checkShippingChoice(
  listing: { handover: readonly HandoverMode[]; parcelSize: ParcelSize | null },
  choice: { carrier: Carrier; method: DeliveryMethod },
): ShippingChoiceResult {
  if (!listing.handover.includes("shipping") || listing.parcelSize === null)
    return { ok: false, status: 409, message: SHIPPING_CHOICE_REFUSALS.notShipped };
  const offer = shippingOffer(choice.carrier, choice.method, listing.parcelSize);
  if (!offer) return { ok: false, status: 400, message: SHIPPING_CHOICE_REFUSALS.notOffered };
  return { ok: true, offer };
}

/** The wizard's rule: at least one mode, and a size when the toy can be sent (null when valid). */
export function handoverRefusal(handover: readonly HandoverMode[], parcelSize: ParcelSize | null): string | null {
  if (handover.length === 0) return SHIPPING_CHOICE_REFUSALS.noHandover;
  if (handover.includes("shipping") && parcelSize === null) return SHIPPING_CHOICE_REFUSALS.noSize;
  return null;
}

/** Where the seller hands the parcel in, per carrier (shown beside "Sendekode: {kode}"). */
export const HAND_IN_PLACES: Record<Carrier, string> = {
  bring: "Lever pakken på et postkontor, hos Post i Butikk eller i en pakkeautomat.",
  helthjem: "Lever pakken på et av Helthjems innleveringssteder.",
};

/** A pickup point or parcel locker near the buyer (GET /api/shipping/pickup-points). */
export interface PickupPointView {
  id: string;
  name: string;
  kind: "manned" | "locker";
  address: string;
  postal_code: string;
  city: string;
  opening_hours: string;
  distance_km: number;
}

/** GET /api/shipping/pickup-points answer: the nearest first, at most 10. */
export interface PickupPointsResponse {
  pickup_points: PickupPointView[];
}

/** A Norwegian mobile number, as the carriers' SMS notices need it: 8 digits starting 4 or 9, optionally +47. */
export const MOBILE_NUMBER_RE = /^(?:\+47|0047)?[49]\d{7}$/;

// ---- tracking codes ----------------------------------------------------------------------------

/** The carrier-driven moves of a shipment (domain/shipping.ts names them in its lifecycle). */
export type TrackingAction = "drop_off" | "transit" | "arrive" | "deliver" | "return_to_sender";

/**
 * Each code a carrier may push, with the move it makes, or null for a code that is known but moves
 * nothing (it still counts as a sign of life for the lost-parcel check). A code not listed is
 * ignored the same way, so a new code from the carrier never breaks the webhook.
 *
 * Bring: Event Cast's event groups (the Tracking API's status codes). COLLECTED is the postman
 * taking the parcel from the seller's mailbox; the Norgespakke is often first scanned at the
 * terminal, so TERMINAL and IN_TRANSIT may be the first code after booking.
 */
export const TRACKING_CODES: Record<Carrier, Readonly<Record<string, TrackingAction | null>>> = {
  bring: {
    PRE_NOTIFIED: null,
    HANDED_IN: "drop_off",
    COLLECTED: "drop_off",
    TERMINAL: "transit",
    IN_TRANSIT: "transit",
    INTERNATIONAL: null,
    CUSTOMS: null,
    TRANSPORT_TO_RECIPIENT: "transit",
    ATTEMPTED_DELIVERY: null,
    NOTIFICATION_SENT: null,
    READY_FOR_PICKUP: "arrive",
    DELIVERED: "deliver",
    DEVIATION: null,
    RETURN: "return_to_sender",
    DELIVERED_SENDER: "return_to_sender",
    UNKNOWN: null,
  },
  // Helthjem's points as its terms name them ("skannet inn på terminalen" … "utlevert til kunde");
  // the codes are the sandbox's until Helthjem's API documentation is at hand (decision 145).
  helthjem: {
    REGISTERED: null,
    HANDED_IN: "drop_off",
    TERMINAL_SCAN: "transit",
    IN_TRANSIT: "transit",
    OUT_FOR_DELIVERY: "transit",
    READY_FOR_PICKUP: "arrive",
    DELIVERED: "deliver",
    RETURNED: "return_to_sender",
  },
};

/** The move a tracking code makes: an action, null for a code that moves nothing or is unknown. */
export function trackingAction(carrier: Carrier, code: string): TrackingAction | null {
  return Object.hasOwn(TRACKING_CODES[carrier], code) ? (TRACKING_CODES[carrier][code] ?? null) : null;
}
