// "Send med posten" (decision 145): domain/shipping.ts and domain/carriers.ts. Every (state, actor,
// action) cell against tables written out here by hand, the tracking codes (unknown, silent, out of
// order), every carrier × method × size's price, and the deadlines on Oslo's calendar.
import { describe, expect, it } from "vitest";
import {
  CARRIERS,
  checkShippingChoice,
  DELIVERY_METHODS,
  HANDOVER_CHECKOUT_LABELS,
  handoverRefusal,
  leadTimeText,
  PARCEL_SIZE_LIMITS,
  PARCEL_SIZES,
  parcelSizeHint,
  shippingOffer,
  shippingOffersFor,
  TRACKING_CODES,
} from "../../domain/carriers";
import { HANDOVER_LISTING_LABELS, PARCEL_SIZE_LABELS } from "../../domain/taxonomy";
import { formatDate } from "../../domain/format";
import { findTransition, type Lifecycle } from "../../domain/lifecycle";
import { autoReleaseAt } from "../../domain/orders";
import {
  DELIVERED_RELEASE_HOURS,
  DROP_OFF_DAYS,
  deliveredReleaseAt,
  dropOffDeadline,
  isFinalShipmentState,
  LOST_AFTER_DAYS,
  lostAt,
  ORDER_STATE_AFTER,
  SHIPMENT_ACTIONS,
  SHIPMENT_ACTORS,
  SHIPMENT_REFUSALS,
  SHIPMENT_STATE_LABELS,
  SHIPMENT_STATES,
  SHIPMENT_TEXTS,
  SHIPMENT_TRANSITIONS,
  type ShipmentState,
  shipmentMove,
  shippingSplit,
  trackingMove,
} from "../../domain/shipping";

/** Every allowed move, "state/actor/action" → the state after it. Everything else is refused. */
const ALLOWED: Record<string, string> = {
  "booking/system/book": "booked",
  "booking/system/fail_booking": "booking_failed",
  "booking_failed/seller/retry_booking": "booking",
  "booking_failed/buyer/retry_booking": "booking",
  "booked/carrier/drop_off": "dropped_off",
  "booked/carrier/transit": "in_transit",
  "dropped_off/carrier/transit": "in_transit",
  "lost/carrier/transit": "in_transit",
  "booked/carrier/arrive": "ready_for_pickup",
  "dropped_off/carrier/arrive": "ready_for_pickup",
  "in_transit/carrier/arrive": "ready_for_pickup",
  "lost/carrier/arrive": "ready_for_pickup",
  "booked/carrier/deliver": "delivered",
  "dropped_off/carrier/deliver": "delivered",
  "in_transit/carrier/deliver": "delivered",
  "ready_for_pickup/carrier/deliver": "delivered",
  "lost/carrier/deliver": "delivered",
  "dropped_off/carrier/return_to_sender": "returned",
  "in_transit/carrier/return_to_sender": "returned",
  "ready_for_pickup/carrier/return_to_sender": "returned",
  "lost/carrier/return_to_sender": "returned",
  "dropped_off/system/declare_lost": "lost",
  "in_transit/system/declare_lost": "lost",
  "dropped_off/moderator/declare_lost": "lost",
  "in_transit/moderator/declare_lost": "lost",
  "booking/system/expire": "cancelled",
  "booked/system/expire": "cancelled",
  "booking_failed/system/expire": "cancelled",
  "booking/moderator/cancel": "cancelled",
  "booked/moderator/cancel": "cancelled",
  "booking_failed/moderator/cancel": "cancelled",
  "booking/system/cancel": "cancelled",
  "booked/system/cancel": "cancelled",
  "booking_failed/system/cancel": "cancelled",
};

/** Who may take each action at all: anyone else is refused with 403 and the action's own text. */
const ACTION_ACTORS: Record<string, string[]> = {
  book: ["system"],
  fail_booking: ["system"],
  retry_booking: ["seller", "buyer"],
  drop_off: ["carrier"],
  transit: ["carrier"],
  arrive: ["carrier"],
  deliver: ["carrier"],
  return_to_sender: ["carrier"],
  declare_lost: ["system", "moderator"],
  expire: ["system"],
  cancel: ["moderator", "system"],
};

const WRONG_ACTOR: Record<string, string> = {
  book: "Frakten bestilles automatisk når kjøpet er betalt.",
  fail_booking: "Bare fraktselskapet kan avvise en bestilling.",
  retry_booking: "Bare kjøperen og selgeren kan bestille frakten på nytt.",
  drop_off: "Bare fraktselskapet kan registrere at pakken er levert inn.",
  transit: "Bare fraktselskapet kan registrere at pakken er på vei.",
  arrive: "Bare fraktselskapet kan registrere at pakken er klar til henting.",
  deliver: "Bare fraktselskapet kan registrere at pakken er levert.",
  return_to_sender: "Bare fraktselskapet kan sende pakken tilbake til selgeren.",
  declare_lost: "Bare en moderator kan melde pakken savnet.",
  expire: "Sendingen avbrytes automatisk når fristen for innlevering er ute.",
  cancel: "Bare en moderator kan avbryte sendingen.",
};

/** The refusal for the right actor in a state the action does not start from (all 409). */
const WRONG_STATE: Record<string, string> = {
  // Final states: nothing moves the parcel any more.
  "delivered/*": "Pakken er allerede levert.",
  "returned/*": "Pakken er sendt tilbake til selgeren.",
  "cancelled/*": "Sendingen er avbrutt, og pengene er betalt tilbake til kjøperen.",
};
function refuse(state: string, actions: string[], text: string) {
  for (const action of actions) WRONG_STATE[`${state}/${action}`] = text;
}
const CARRIER_MOVES = ["drop_off", "transit", "arrive", "deliver", "return_to_sender", "declare_lost"];
const BOOKING_MOVES = ["book", "fail_booking", "retry_booking"];
refuse("booking", CARRIER_MOVES, "Frakten er ikke bestilt ennå.");
refuse("booking", ["retry_booking"], "Frakten bestilles nå. Vent litt.");
refuse("booking_failed", CARRIER_MOVES, "Frakten kunne ikke bestilles.");
refuse("booking_failed", ["book", "fail_booking"], "Fraktselskapet avviste bestillingen. Den må bestilles på nytt.");
refuse("booked", BOOKING_MOVES, "Frakten er allerede bestilt.");
refuse("booked", ["return_to_sender", "declare_lost"], "Pakken er ikke levert inn ennå.");
refuse("dropped_off", [...BOOKING_MOVES, "drop_off", "expire", "cancel"], "Pakken er allerede levert inn.");
refuse("in_transit", [...BOOKING_MOVES, "drop_off", "transit", "expire", "cancel"], "Pakken er allerede på vei.");
refuse("ready_for_pickup", [...BOOKING_MOVES, "drop_off", "transit", "arrive", "expire", "cancel"], "Pakken er allerede klar til henting.");
refuse("ready_for_pickup", ["declare_lost"], "Pakken er klar til henting, så den er ikke savnet.");
refuse("lost", [...BOOKING_MOVES, "drop_off", "expire", "cancel"], "Pakken er meldt savnet. En moderator ser på saken.");
refuse("lost", ["declare_lost"], "Pakken er allerede meldt savnet.");

const CASES = SHIPMENT_STATES.flatMap((state) =>
  SHIPMENT_ACTORS.flatMap((actor) => SHIPMENT_ACTIONS.map((action) => ({ state, actor, action, key: `${state}/${actor}/${action}` }))),
);

describe("the parcel's lifecycle", () => {
  it("covers 10 states × 5 actors × 11 actions", () => {
    expect(SHIPMENT_STATES.join(" ")).toBe(
      "booking booked booking_failed dropped_off in_transit ready_for_pickup delivered lost returned cancelled",
    );
    expect(SHIPMENT_ACTORS).toEqual(["buyer", "seller", "carrier", "moderator", "system"]);
    expect([...SHIPMENT_ACTIONS].sort()).toEqual(Object.keys(ACTION_ACTORS).sort());
    expect(CASES).toHaveLength(10 * 5 * 11);
  });

  it.each(CASES)("$key", ({ state, actor, action, key }) => {
    const move = shipmentMove(state, actor, action);
    if (ALLOWED[key]) {
      expect(move).toEqual({ ok: true, to: ALLOWED[key] });
      return;
    }
    if (!ACTION_ACTORS[action].includes(actor)) {
      expect(move).toEqual({ ok: false, status: 403, message: WRONG_ACTOR[action] });
      return;
    }
    const message = WRONG_STATE[`${state}/*`] ?? WRONG_STATE[`${state}/${action}`];
    expect(message, `a written refusal for ${key}`).toBeDefined();
    expect(move).toEqual({ ok: false, status: 409, message });
  });

  it("has one refusal text per state for every action (no cell left to a default)", () => {
    for (const action of SHIPMENT_ACTIONS) {
      const table = SHIPMENT_REFUSALS[action];
      for (const state of SHIPMENT_STATES) {
        const allowedHere = SHIPMENT_TRANSITIONS[action].some((t) => t.from === state);
        expect(table.byState[state] === null, `${action} from ${state}`).toBe(allowedHere);
      }
    }
  });

  it("never gives one action two transitions from the same state for the same actor", () => {
    const table: Lifecycle<string, string, string> = SHIPMENT_TRANSITIONS;
    const keys = Object.entries(table).flatMap(([action, list]) => list.flatMap((t) => t.by.map((by) => `${action}/${t.from}/${by}`)));
    expect(new Set(keys).size).toBe(keys.length);
    for (const [action, list] of Object.entries(table))
      for (const t of list) for (const by of t.by) expect(findTransition(table, action, t.from, by)?.to).toBe(t.to);
  });

  it("ends in delivered, returned and cancelled only; a lost parcel can still be found", () => {
    expect(SHIPMENT_STATES.filter(isFinalShipmentState)).toEqual(["delivered", "returned", "cancelled"]);
  });

  it("tells the order what happened: delivered is the handover, lost and returned a case, cancelled a full refund", () => {
    expect(ORDER_STATE_AFTER).toEqual({ delivered: "handed_over", lost: "problem", returned: "problem", cancelled: "cancelled" });
  });
});

describe("the carriers' tracking codes", () => {
  /** Each carrier's codes by the move they make ("-" for a code that moves nothing); no other codes. */
  const CODES = {
    bring: {
      drop_off: "HANDED_IN COLLECTED",
      transit: "TERMINAL IN_TRANSIT TRANSPORT_TO_RECIPIENT",
      arrive: "READY_FOR_PICKUP",
      deliver: "DELIVERED",
      return_to_sender: "RETURN DELIVERED_SENDER",
      "-": "PRE_NOTIFIED INTERNATIONAL CUSTOMS ATTEMPTED_DELIVERY NOTIFICATION_SENT DEVIATION UNKNOWN",
    },
    helthjem: {
      drop_off: "HANDED_IN",
      transit: "TERMINAL_SCAN IN_TRANSIT OUT_FOR_DELIVERY",
      arrive: "READY_FOR_PICKUP",
      deliver: "DELIVERED",
      return_to_sender: "RETURNED",
      "-": "REGISTERED",
    },
  };

  it.each(CARRIERS)("maps every %s code, and lists no other", (carrier) => {
    const expected = Object.entries(CODES[carrier]).flatMap(([action, codes]) =>
      codes.split(" ").map((code) => [code, action === "-" ? null : action]),
    );
    expect(Object.entries(TRACKING_CODES[carrier]).sort()).toEqual(expected.sort());
  });

  it.each(["SOMETHING_NEW", "", "delivered", "__proto__", "toString", "constructor"])("ignores the unknown code %j", (code) => {
    for (const carrier of CARRIERS) expect(trackingMove("in_transit", carrier, code)).toEqual({ moved: false, ignored: "unknown" });
  });

  it("ignores a known code that moves nothing, in any state", () => {
    for (const state of SHIPMENT_STATES)
      expect(trackingMove(state, "bring", "NOTIFICATION_SENT")).toEqual({ moved: false, ignored: "silent" });
  });

  /** What each code of a stream does (the state it leads to, or why it is ignored), each applied to the state before. */
  function replay(codes: string, carrier: "bring" | "helthjem" = "bring", from: ShipmentState = "booked"): string {
    let state = from;
    return codes
      .split(" ")
      .map((code) => {
        const move = trackingMove(state, carrier, code);
        if (move.moved) state = move.to;
        return move.moved ? move.to : move.ignored;
      })
      .join(" ");
  }

  it("follows the usual order, skipping what the carrier never sends", () => {
    expect(replay("PRE_NOTIFIED HANDED_IN TERMINAL IN_TRANSIT READY_FOR_PICKUP NOTIFICATION_SENT DELIVERED")).toBe(
      "silent dropped_off in_transit stale ready_for_pickup silent delivered",
    );
    // A Norgespakke is first scanned at the terminal; a mailbox parcel is never ready for pickup.
    expect(replay("TERMINAL TRANSPORT_TO_RECIPIENT DELIVERED")).toBe("in_transit stale delivered");
    expect(replay("TERMINAL_SCAN OUT_FOR_DELIVERY DELIVERED", "helthjem")).toBe("in_transit stale delivered");
  });

  it("never moves a parcel back when events come out of order or twice", () => {
    expect(replay("DELIVERED IN_TRANSIT HANDED_IN READY_FOR_PICKUP DELIVERED")).toBe("delivered stale stale stale stale");
    expect(replay("READY_FOR_PICKUP IN_TRANSIT HANDED_IN DELIVERED")).toBe("ready_for_pickup stale stale delivered");
    expect(replay("IN_TRANSIT HANDED_IN")).toBe("in_transit stale");
  });

  it("moves a lost parcel on when the carrier sees it again, but not back to handed in", () => {
    expect(replay("HANDED_IN IN_TRANSIT DELIVERED", "bring", "lost")).toBe("stale in_transit delivered");
  });

  it("ignores every event after a final state and before a booking", () => {
    for (const state of ["delivered", "returned", "cancelled", "booking", "booking_failed"] as const)
      for (const code of ["HANDED_IN", "IN_TRANSIT", "READY_FOR_PICKUP", "DELIVERED", "RETURN"])
        expect(trackingMove(state, "bring", code), `${code} in ${state}`).toEqual({ moved: false, ignored: "stale" });
  });

  it("sends a parcel not collected back to the seller", () => {
    expect(replay("HANDED_IN READY_FOR_PICKUP RETURN DELIVERED_SENDER")).toBe("dropped_off ready_for_pickup returned stale");
  });
});

describe("sizes, carriers and prices", () => {
  it("names the sizes with Bring's C2C measures", () => {
    expect(PARCEL_SIZES.map((s) => PARCEL_SIZE_LABELS[s])).toEqual(["Liten pakke", "Medium pakke", "Stor pakke"]);
    expect(PARCEL_SIZE_LIMITS).toEqual({
      small: { lengthCm: 35, widthCm: 25, heightCm: 11, weightKg: 5 },
      medium: { lengthCm: 45, widthCm: 30, heightCm: 15, weightKg: 5 },
      large: { lengthCm: 58, widthCm: 43, heightCm: 23, weightKg: 10 },
    });
    expect(parcelSizeHint("small")).toBe("Maks 35 × 25 × 11 cm og 5 kg");
  });

  /** Every offered carrier/method/size with its price in øre; every other combination is not offered. */
  const PRICES: Record<string, number> = {
    "bring/mailbox/small": 7_900,
    "bring/mailbox/medium": 9_900,
    "bring/parcel_locker/small": 6_900,
    "bring/parcel_locker/medium": 8_900,
    "bring/parcel_locker/large": 12_900,
    "bring/pickup_point/small": 7_900,
    "bring/pickup_point/medium": 9_900,
    "bring/pickup_point/large": 13_900,
    "helthjem/mailbox/small": 6_900,
    "helthjem/pickup_point/small": 7_900,
    "helthjem/pickup_point/medium": 9_900,
    "helthjem/pickup_point/large": 12_900,
  };
  const COMBINATIONS = CARRIERS.flatMap((carrier) =>
    DELIVERY_METHODS.flatMap((method) => PARCEL_SIZES.map((size) => ({ carrier, method, size, key: `${carrier}/${method}/${size}` }))),
  );

  it.each(COMBINATIONS)("$key", ({ carrier, method, size, key }) => {
    const offer = shippingOffer(carrier, method, size);
    const listing = { handover: ["in_person", "shipping"] as const, parcelSize: size };
    if (PRICES[key] === undefined) {
      expect(offer).toBeNull();
      expect(checkShippingChoice(listing, { carrier, method })).toEqual({
        ok: false,
        status: 400,
        message: "Denne leveringen finnes ikke for pakkestørrelsen. Velg en annen.",
      });
      return;
    }
    expect(offer?.priceOre).toBe(PRICES[key]);
    expect(Number.isInteger(offer?.priceOre)).toBe(true);
    expect(offer?.leadDays.min).toBeGreaterThan(0);
    expect(offer?.leadDays.max).toBeGreaterThanOrEqual(offer?.leadDays.min ?? 0);
    expect(checkShippingChoice(listing, { carrier, method })).toEqual({ ok: true, offer });
  });

  it("lists a size's offers cheapest first, Posten before Helthjem at the same price", () => {
    const keys = (size: "small" | "large") => shippingOffersFor(size).map((o) => `${o.carrier}/${o.method}:${o.priceOre}`);
    expect(keys("small")).toEqual([
      "bring/parcel_locker:6900",
      "helthjem/mailbox:6900",
      "bring/mailbox:7900",
      "bring/pickup_point:7900",
      "helthjem/pickup_point:7900",
    ]);
    expect(keys("large")).toEqual(["bring/parcel_locker:12900", "helthjem/pickup_point:12900", "bring/pickup_point:13900"]);
    expect(leadTimeText({ min: 2, max: 4 })).toBe("2–4 virkedager");
  });

  it("refuses shipping a listing that is only for pickup", () => {
    const refused = { ok: false, status: 409, message: "Selgeren sender ikke denne leken. Velg «Henting»." };
    const choice = { carrier: "bring", method: "pickup_point" } as const;
    expect(checkShippingChoice({ handover: ["in_person"], parcelSize: null }, choice)).toEqual(refused);
    expect(checkShippingChoice({ handover: ["in_person"], parcelSize: "small" }, choice)).toEqual(refused);
  });

  it("asks the wizard for a way to change hands and, for shipping, a size", () => {
    expect(handoverRefusal([], null)).toBe("Velg minst én måte: «Hentes» eller «Kan sendes».");
    expect(handoverRefusal(["shipping"], null)).toBe("Velg hvor stor pakken er.");
    expect(handoverRefusal(["in_person"], null)).toBeNull();
    expect(handoverRefusal(["in_person", "shipping"], "medium")).toBeNull();
  });

  it("releases the toy less the fee to the seller and the shipping to the carrier", () => {
    // 250 kr toy, 79 kr shipping, 5 % fee on the toy only.
    expect(shippingSplit(25_000, 7_900, 500)).toEqual({ total: 32_900, toSeller: 23_750, fee: 1_250, toCarrier: 7_900 });
    expect(shippingSplit(25_000, 7_900, 0)).toEqual({ total: 32_900, toSeller: 25_000, fee: 0, toCarrier: 7_900 });
  });
});

describe("the times, on Oslo's calendar", () => {
  it.each([
    // paid at (UTC) → the last moment to hand in, and the date the seller reads
    ["2026-11-20T10:00:00.000Z", "2026-11-27T22:59:59.999Z", "27. november 2026"], // winter, UTC+1
    ["2026-06-10T09:00:00.000Z", "2026-06-17T21:59:59.999Z", "17. juni 2026"], // summer, UTC+2
    ["2026-06-10T22:30:00.000Z", "2026-06-18T21:59:59.999Z", "18. juni 2026"], // already 11 June in Oslo
    ["2026-12-31T23:30:00.000Z", "2027-01-08T22:59:59.999Z", "8. januar 2027"], // new year in Oslo first
    ["2026-10-20T12:00:00.000Z", "2026-10-27T22:59:59.999Z", "27. oktober 2026"], // summer time ends on the 25th
    ["2026-03-25T12:00:00.000Z", "2026-04-01T21:59:59.999Z", "1. april 2026"], // summer time starts on the 29th
  ])("paid %s → hand in by %s (%s)", (paidAt, deadline, date) => {
    expect(dropOffDeadline(paidAt)).toBe(deadline);
    expect(formatDate(dropOffDeadline(paidAt))).toBe(date);
    expect(SHIPMENT_TEXTS.dropOffBy(formatDate(dropOffDeadline(paidAt)))).toBe(`Lever pakken innen ${date}`);
  });

  it(`gives the seller ${DROP_OFF_DAYS} whole days after the day of payment`, () => {
    expect(DROP_OFF_DAYS).toBe(7);
  });

  it(`counts a parcel lost after ${LOST_AFTER_DAYS} days without any event`, () => {
    expect(LOST_AFTER_DAYS).toBe(10);
    expect(lostAt("2026-11-20T10:00:00.000Z")).toBe("2026-11-30T10:00:00.000Z");
  });

  it("releases the money 48 hours after the delivered notice, as after a handover", () => {
    expect(DELIVERED_RELEASE_HOURS).toBe(48);
    expect(deliveredReleaseAt("2026-11-20T10:00:00.000Z")).toBe("2026-11-22T10:00:00.000Z");
    expect(deliveredReleaseAt("2026-11-20T10:00:00.000Z")).toBe(autoReleaseAt("2026-11-20T10:00:00.000Z"));
  });
});

describe("the texts", () => {
  it("are the product's words", () => {
    expect(HANDOVER_LISTING_LABELS).toEqual({ in_person: "Hentes", shipping: "Kan sendes" });
    expect(HANDOVER_CHECKOUT_LABELS).toEqual({ in_person: "Henting", shipping: "Sending" });
    expect(SHIPMENT_TEXTS.dropOffCode("LL12 3456 789")).toBe("Sendekode: LL12 3456 789");
    expect(SHIPMENT_TEXTS.reportProblem).toBe("Meld fra om et problem");
    expect(SHIPMENT_TEXTS.released).toBe("Utbetalt til selger");
    expect(SHIPMENT_STATE_LABELS.dropped_off).toBe("Pakken er levert inn");
    expect(SHIPMENT_STATE_LABELS.in_transit).toBe("Pakken er på vei");
    expect(SHIPMENT_STATE_LABELS.ready_for_pickup).toBe("Pakken er klar til henting");
    expect(SHIPMENT_STATE_LABELS.delivered).toBe("Pakken er levert");
  });
});
