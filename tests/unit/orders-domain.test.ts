// Trygg betaling (decision 105): the held money's lifecycle in domain/orders.ts. Every
// (state, actor, action) cell, for an order handed over in person and for a sent one (decision 153),
// against tables written out here by hand: the state after an allowed move, and for every refused
// one the Norwegian text and the HTTP status the Worker answers.
import { describe, expect, it } from "vitest";
import {
  AUTO_RELEASE_HOURS,
  autoReleaseAt,
  CANCEL_AFTER_DAYS,
  cancelAllowedFrom,
  ORDER_ACTIONS,
  ORDER_ACTORS,
  ORDER_REFUSALS,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  orderActionsFor,
  orderMove,
  isFinalOrderState,
  partialPayout,
  reminderAt,
} from "../../domain/orders";

/** Every allowed move of any order, "state/actor/action" → the state after it. */
const ALLOWED_BOTH: Record<string, string> = {
  "held/buyer/confirm_received": "released",
  "handed_over/buyer/confirm_received": "released",
  "held/buyer/report_problem": "problem",
  "handed_over/buyer/report_problem": "problem",
  "handed_over/system/auto_release": "released",
  "problem/moderator/refund": "refunded",
  "problem/moderator/partial_refund": "partially_refunded",
  "problem/moderator/release_by_moderator": "released",
  "held/system/seller_account_deleted": "refunded",
  "handed_over/system/seller_account_deleted": "refunded",
  "problem/system/seller_account_deleted": "refunded",
};

/** Handed over in person: the seller marks it, the buyer may cancel. Everything not listed is refused. */
const ALLOWED_IN_PERSON: Record<string, string> = {
  ...ALLOWED_BOTH,
  "held/seller/mark_handed_over": "handed_over",
  "held/buyer/cancel_no_handover": "cancelled",
};

/**
 * A sent toy (decisions 145, 153): the carrier's DELIVERED is the handover, a lost or returned parcel
 * opens a case, a parcel not handed in by the deadline cancels the purchase; the seller never marks
 * it handed over and the buyer never cancels it. "Jeg har fått varen" stays, before delivery too.
 */
const ALLOWED_SHIPPED: Record<string, string> = {
  ...ALLOWED_BOTH,
  "held/system/parcel_delivered": "handed_over",
  "held/system/parcel_case": "problem",
  "handed_over/system/parcel_case": "problem",
  "held/system/parcel_not_handed_in": "cancelled",
};

const ALLOWED = { in_person: ALLOWED_IN_PERSON, shipping: ALLOWED_SHIPPED };

/** The right actor asking for an action the order's way of changing hands does not have, while no case is open and nothing is decided (409). */
const NOT_SHIPPED = "Dette kjøpet sendes ikke med posten, så det er ingen pakke å følge.";
const WRONG_MODE: Record<string, string> = {
  "shipping/held/mark_handed_over": "Fraktselskapet melder når pakken er levert.",
  "shipping/handed_over/mark_handed_over": "Fraktselskapet melder når pakken er levert.",
  "shipping/held/cancel_no_handover":
    "Kjøpet avbrytes automatisk, og du får pengene tilbake, hvis selgeren ikke leverer inn pakken innen fristen.",
  "shipping/handed_over/cancel_no_handover":
    "Kjøpet avbrytes automatisk, og du får pengene tilbake, hvis selgeren ikke leverer inn pakken innen fristen.",
  "in_person/held/parcel_delivered": NOT_SHIPPED,
  "in_person/handed_over/parcel_delivered": NOT_SHIPPED,
  "in_person/held/parcel_case": NOT_SHIPPED,
  "in_person/handed_over/parcel_case": NOT_SHIPPED,
  "in_person/held/parcel_not_handed_in": NOT_SHIPPED,
  "in_person/handed_over/parcel_not_handed_in": NOT_SHIPPED,
};

/** Who may take each action at all: anyone else is refused with 403 and the action's own text. */
const ACTION_ACTOR: Record<string, string> = {
  mark_handed_over: "seller",
  confirm_received: "buyer",
  report_problem: "buyer",
  cancel_no_handover: "buyer",
  auto_release: "system",
  refund: "moderator",
  partial_refund: "moderator",
  release_by_moderator: "moderator",
  seller_account_deleted: "system",
  parcel_delivered: "system",
  parcel_case: "system",
  parcel_not_handed_in: "system",
};

const WRONG_ACTOR: Record<string, string> = {
  mark_handed_over: "Bare selgeren kan markere varen som overlevert.",
  confirm_received: "Bare kjøperen kan bekrefte at varen er mottatt.",
  report_problem: "Bare kjøperen kan melde fra om et problem med kjøpet.",
  cancel_no_handover: "Bare kjøperen kan avbryte kjøpet.",
  auto_release: "Pengene utbetales automatisk; det kan ikke gjøres for hånd.",
  refund: "Bare en moderator kan betale pengene tilbake.",
  partial_refund: "Bare en moderator kan betale pengene tilbake.",
  release_by_moderator: "Bare en moderator kan utbetale pengene i en sak.",
  seller_account_deleted: "Dette skjer bare når selgeren sletter kontoen sin.",
  parcel_delivered: "Pakken registreres som levert når fraktselskapet melder det; det kan ikke gjøres for hånd.",
  parcel_case: "En sak om pakken åpnes automatisk når den er savnet eller sendt tilbake.",
  parcel_not_handed_in: "Kjøpet avbrytes automatisk når pakken ikke er levert inn innen fristen.",
};

/** The refusal for the right actor in a state the action does not start from (all 409). */
const WRONG_STATE: Record<string, string> = {
  // Final states: the money has moved, whatever is asked.
  "released/*": "Pengene er allerede utbetalt til selger.",
  "refunded/*": "Pengene er allerede betalt tilbake til kjøperen.",
  "cancelled/*": "Kjøpet er avbrutt, og pengene er betalt tilbake til kjøperen.",
  "partially_refunded/*": "Saken er avgjort: en del av pengene er betalt tilbake, og resten er utbetalt til selger.",
  // A case is open: only a moderator decides.
  "problem/mark_handed_over": "Kjøperen har meldt fra om et problem. En moderator ser på saken.",
  "problem/confirm_received": "Du har meldt fra om et problem. En moderator ser på saken og avgjør hva som skjer med pengene.",
  "problem/report_problem": "Du har allerede meldt fra om et problem. En moderator ser på saken.",
  "problem/cancel_no_handover": "Du har meldt fra om et problem. En moderator ser på saken og avgjør hva som skjer med pengene.",
  "problem/auto_release": "Kjøperen har meldt fra om et problem, så pengene utbetales ikke automatisk.",
  "problem/parcel_delivered": "Kjøperen har meldt fra om et problem. En moderator ser på saken.",
  "problem/parcel_case": "Det er allerede en sak om kjøpet. En moderator ser på saken.",
  "problem/parcel_not_handed_in": "Kjøperen har meldt fra om et problem. En moderator ser på saken.",
  // Handed over.
  "handed_over/mark_handed_over": "Du har allerede markert varen som overlevert.",
  "handed_over/cancel_no_handover":
    "Selgeren har markert varen som overlevert, så kjøpet kan ikke avbrytes. Meld fra om et problem hvis du ikke har fått varen.",
  "handed_over/refund": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
  "handed_over/partial_refund": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
  "handed_over/release_by_moderator": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
  "handed_over/parcel_delivered": "Varen er allerede markert som overlevert.",
  "handed_over/parcel_not_handed_in": "Varen er allerede overlevert, så kjøpet kan ikke avbrytes.",
  // Held.
  "held/auto_release": "Selgeren har ikke markert varen som overlevert ennå.",
  "held/refund": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
  "held/partial_refund": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
  "held/release_by_moderator": "Kjøperen har ikke meldt fra om et problem, så det er ingen sak å avgjøre.",
};

const MODES = ["in_person", "shipping"] as const;
const CASES = MODES.flatMap((mode) =>
  ORDER_STATES.flatMap((state) =>
    ORDER_ACTORS.flatMap((actor) =>
      ORDER_ACTIONS.map((action) => ({ mode, state, actor, action, key: `${mode}/${state}/${actor}/${action}` })),
    ),
  ),
);

describe("the held money's lifecycle", () => {
  it("covers 2 ways of changing hands × 7 states × 4 actors × 12 actions", () => {
    expect(ORDER_STATES).toEqual(["held", "handed_over", "problem", "released", "refunded", "partially_refunded", "cancelled"]);
    expect(ORDER_ACTORS).toEqual(["buyer", "seller", "moderator", "system"]);
    expect(CASES).toHaveLength(2 * 7 * 4 * 12);
  });

  it.each(CASES)("$key", ({ mode, state, actor, action }) => {
    const move = orderMove(state, actor, action, mode);
    const allowed = ALLOWED[mode][`${state}/${actor}/${action}`];
    if (allowed) {
      expect(move).toEqual({ ok: true, to: allowed });
      return;
    }
    if (ACTION_ACTOR[action] !== actor) {
      expect(move).toEqual({ ok: false, status: 403, message: WRONG_ACTOR[action] });
      return;
    }
    const message = WRONG_MODE[`${mode}/${state}/${action}`] ?? WRONG_STATE[`${state}/*`] ?? WRONG_STATE[`${state}/${action}`];
    expect(message, `a written refusal for ${mode}/${state}/${actor}/${action}`).toBeDefined();
    expect(move).toEqual({ ok: false, status: 409, message });
  });

  it.each(MODES)("offers %s exactly the allowed moves as buttons", (mode) => {
    for (const state of ORDER_STATES)
      for (const actor of ORDER_ACTORS) {
        const expected = ORDER_ACTIONS.filter((action) => ALLOWED[mode][`${state}/${actor}/${action}`]);
        expect(orderActionsFor(state, actor, mode), `${state}/${actor}`).toEqual(expected);
      }
  });

  it("has one refusal text per state for every action (no cell left to a default)", () => {
    for (const action of ORDER_ACTIONS) {
      const table = ORDER_REFUSALS[action];
      expect(typeof table.wrongActor).toBe("string");
      for (const state of ORDER_STATES) {
        const allowedHere = ORDER_TRANSITIONS[action].some((t) => t.from === state);
        // A state the action starts from has no refusal; every other state has its own text.
        expect(table.byState[state] === null, `${action} from ${state}`).toBe(allowedHere);
      }
    }
  });

  it("ends in the final states and only there", () => {
    expect(ORDER_STATES.filter(isFinalOrderState)).toEqual(["released", "refunded", "partially_refunded", "cancelled"]);
  });
});

describe("the times", () => {
  it(`releases ${AUTO_RELEASE_HOURS} hours after the handover and reminds the buyer 24 hours before`, () => {
    const handedOver = "2026-11-20T10:00:00.000Z";
    expect(autoReleaseAt(handedOver)).toBe("2026-11-22T10:00:00.000Z");
    expect(reminderAt(autoReleaseAt(handedOver))).toBe("2026-11-21T10:00:00.000Z");
  });

  it(`lets the buyer cancel ${CANCEL_AFTER_DAYS} days after paying`, () => {
    expect(cancelAllowedFrom("2026-11-01T08:30:00.000Z")).toBe("2026-11-08T08:30:00.000Z");
  });
});

describe("a partial refund", () => {
  it.each([
    // amount, refund, fee → to the seller, fee kept
    [30_000, 10_000, 0, { payout: 20_000, fee: 0 }],
    [30_000, 10_000, 1_500, { payout: 19_000, fee: 1_000 }],
    [30_000, 29_999, 1_500, { payout: 1, fee: 0 }],
    [25_000, 5_000, 1_250, { payout: 19_000, fee: 1_000 }],
  ])("%i øre, %i back, fee %i → %o", (amount, refund, fee, expected) => {
    expect(partialPayout(amount, refund, fee)).toEqual(expected);
  });
});
