// The trade lifecycle in domain/trades.ts (docs/product.md "States"; docs/product.md "Trades"; decision 046):
// every (state, actor, action) case, expiry, the badge labels and time left, and the proposal body.
import { describe, expect, it } from "vitest";
import { createTradeOfferSchema } from "../../domain/schemas/trades";
import { ALLOWED_MOVES } from "../worker/support/trade-moves";
import {
  TRADE_ACTIONS,
  TRADE_OFFER_EXPIRY_DAYS,
  TRADE_STATUS_LABELS,
  displayStatus,
  isExpired,
  timeLeftLabel,
  tradeActionsFor,
  tradeExpiresAt,
  transitionFor,
  type TradeAction,
  type TradeOfferState,
  type TradeOfferStatus,
} from "../../domain/trades";

const NOW = new Date("2026-05-10T12:00:00Z");
const SENDER = "sender-id";
const RECIPIENT = "recipient-id";
const THIRD = "third-id";

type State = TradeOfferStatus | "expired";
const STATES: State[] = ["pending", "expired", "accepted", "rejected", "completed", "cancelled"];
const ACTORS = { sender: SENDER, recipient: RECIPIENT, third: THIRD } as const;

const ALLOWED = ALLOWED_MOVES;

function offerIn(state: State): TradeOfferState {
  const created = state === "expired" ? new Date(NOW.getTime() - 8 * 86_400_000) : new Date(NOW.getTime() - 3_600_000);
  return {
    status: state === "expired" ? "pending" : state,
    expires_at: tradeExpiresAt(created),
    from_user_id: SENDER,
    to_user_id: RECIPIENT,
  };
}

const CASES = STATES.flatMap((state) =>
  (Object.keys(ACTORS) as (keyof typeof ACTORS)[]).flatMap((actor) =>
    TRADE_ACTIONS.map((action) => ({ state, actor, action, key: `${state}/${actor}/${action}` })),
  ),
);

describe("the lifecycle: every (state, actor, action)", () => {
  it("covers 6 states × 3 actors × 4 actions", () => {
    expect(CASES).toHaveLength(72);
    expect(new Set(TRADE_ACTIONS)).toEqual(new Set<TradeAction>(["accept", "reject", "cancel", "confirm"]));
  });

  it.each(CASES)("$key", ({ state, actor, action, key }) => {
    const transition = transitionFor(offerIn(state), ACTORS[actor], action, NOW);
    expect(transition?.to ?? null).toBe(ALLOWED[key] ?? null);
  });
});

describe("the buttons each party gets", () => {
  it.each([
    { state: "pending" as State, recipient: ["accept", "reject"], sender: ["cancel"] },
    { state: "expired" as State, recipient: [], sender: [] },
    { state: "accepted" as State, recipient: ["cancel", "confirm"], sender: ["cancel", "confirm"] },
    { state: "rejected" as State, recipient: [], sender: [] },
    { state: "completed" as State, recipient: [], sender: [] },
    { state: "cancelled" as State, recipient: [], sender: [] },
  ])("$state", ({ state, recipient, sender }) => {
    expect(tradeActionsFor(offerIn(state), RECIPIENT, NOW)).toEqual(recipient);
    expect(tradeActionsFor(offerIn(state), SENDER, NOW)).toEqual(sender);
    expect(tradeActionsFor(offerIn(state), THIRD, NOW)).toEqual([]);
  });

  it("a party who has confirmed the handover no longer gets 'confirm', but can still cancel", () => {
    expect(tradeActionsFor(offerIn("accepted"), SENDER, NOW, true)).toEqual(["cancel"]);
  });
});

describe("expiry: seven days after creation, no status of its own", () => {
  it("expires exactly seven days after it was sent", () => {
    expect(TRADE_OFFER_EXPIRY_DAYS).toBe(7);
    expect(tradeExpiresAt(new Date("2026-05-01T10:00:00Z"))).toBe("2026-05-08T10:00:00.000Z");
  });

  it("a pending offer past expires_at is 'Utløpt'; an answered one keeps its status", () => {
    const offer = { status: "pending" as const, expires_at: "2026-05-10T11:59:59.000Z" };
    expect(isExpired(offer, NOW)).toBe(true);
    expect(displayStatus(offer, NOW)).toBe("expired");
    expect(TRADE_STATUS_LABELS[displayStatus(offer, NOW)]).toBe("Utløpt");
    expect(isExpired({ ...offer, expires_at: "2026-05-10T12:00:01.000Z" }, NOW)).toBe(false);
    expect(displayStatus({ status: "accepted", expires_at: offer.expires_at }, NOW)).toBe("accepted");
  });

  it("the badges say Venter, Akseptert, Avslått, Fullført, Avbrutt, Utløpt", () => {
    expect(TRADE_STATUS_LABELS).toEqual({
      pending: "Venter",
      accepted: "Akseptert",
      rejected: "Avslått",
      completed: "Fullført",
      cancelled: "Avbrutt",
      expired: "Utløpt",
    });
  });

  it.each([
    { left: 7 * 24 * 3_600_000, label: "7d igjen" },
    { left: 36 * 3_600_000 + 60_000, label: "2d igjen" },
    { left: 24 * 3_600_000, label: "1d igjen" },
    { left: 23 * 3_600_000 + 60_000, label: "24t igjen" },
    { left: 5 * 3_600_000, label: "5t igjen" },
    { left: 10 * 60_000, label: "1t igjen" },
  ])("$left ms left: '$label'", ({ left, label }) => {
    expect(timeLeftLabel(new Date(NOW.getTime() + left).toISOString(), NOW)).toBe(label);
  });
});

describe("the proposal body (docs/product.md, Validation)", () => {
  const ids = { requested_listing_id: crypto.randomUUID(), offered_listing_id: crypto.randomUUID() };

  it("trims the message and stores an empty one as null", () => {
    expect(createTradeOfferSchema.parse({ ...ids, message: "  Hei!  " }).message).toBe("Hei!");
    expect(createTradeOfferSchema.parse({ ...ids, message: "   " }).message).toBeNull();
    expect(createTradeOfferSchema.parse({ ...ids }).message).toBeNull();
  });

  it("needs an offered listing ('Velg hva du vil tilby i bytte') and strips what the server decides", () => {
    const missing = createTradeOfferSchema.safeParse({ requested_listing_id: ids.requested_listing_id });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0].message).toBe("Velg hva du vil tilby i bytte");
    const parsed = createTradeOfferSchema.parse({ ...ids, status: "accepted", from_user_id: "x", to_user_id: "y" });
    expect(parsed).toEqual({ ...ids, message: null });
  });

  it("refuses a message over 1 000 characters", () => {
    const result = createTradeOfferSchema.safeParse({ ...ids, message: "a".repeat(1001) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("Meldingen kan ikke være lengre enn 1\u00a0000 tegn");
  });
});
