// The one lifecycle helper of domain/lifecycle.ts, shared by trades and the give-away queue: which
// transition an action takes from a status for a role, on a small table written here, and two
// properties every real table must have so that the helper's answer is the only possible one.
import { describe, expect, it } from "vitest";
import { ORDER_STATES, ORDER_TRANSITIONS, type OrderState } from "../../domain/orders";
import { GIVEAWAY_TRANSITIONS } from "../../domain/giveaways";
import { findTransition, type Lifecycle } from "../../domain/lifecycle";
import { ORDER_STATE_AFTER, SHIPMENT_TRANSITIONS } from "../../domain/shipping";
import { TRADE_TRANSITIONS } from "../../domain/trades";

type DoorStatus = "open" | "closed" | "locked";
type DoorRole = "guest" | "owner";
type DoorAction = "close" | "open" | "lock";

/** Two transitions for one action (`open`), one shared by two roles, one for a single role. */
const DOOR: Lifecycle<DoorAction, DoorStatus, DoorRole> = {
  close: [{ from: "open", by: ["guest", "owner"], to: "closed" }],
  open: [
    { from: "closed", by: ["guest", "owner"], to: "open" },
    { from: "locked", by: ["owner"], to: "open" },
  ],
  lock: [{ from: "closed", by: ["owner"], to: "locked" }],
};

describe("findTransition", () => {
  it.each([
    // The action's transition from this status, for a role it names.
    { action: "close", from: "open", by: "guest", to: "closed" },
    { action: "close", from: "open", by: "owner", to: "closed" },
    // Two transitions for one action: the one from the current status.
    { action: "open", from: "closed", by: "guest", to: "open" },
    { action: "open", from: "locked", by: "owner", to: "open" },
    // A role the transition does not name.
    { action: "open", from: "locked", by: "guest", to: null },
    { action: "lock", from: "closed", by: "guest", to: null },
    // No transition from this status.
    { action: "close", from: "closed", by: "owner", to: null },
    { action: "lock", from: "open", by: "owner", to: null },
    { action: "lock", from: "locked", by: "owner", to: null },
  ] as const)("$action from $from by $by → $to", ({ action, from, by, to }) => {
    expect(findTransition(DOOR, action, from, by)?.to ?? null).toBe(to);
  });

  it("hands back the table's own transition (with its from and by)", () => {
    expect(findTransition(DOOR, "open", "locked", "owner")).toBe(DOOR.open[1]);
  });
});

const TABLES = [
  ["trades", TRADE_TRANSITIONS],
  ["give-away queue", GIVEAWAY_TRANSITIONS],
  ["held money", ORDER_TRANSITIONS],
  ["parcel", SHIPMENT_TRANSITIONS],
] as const;

describe.each(TABLES)("the %s lifecycle table", (_name, table: Lifecycle<string, string, string>) => {
  const transitions = Object.entries(table).flatMap(([action, list]) => list.map((t) => ({ action, ...t })));

  it("finds every transition it lists, for every role it names", () => {
    for (const t of transitions) {
      for (const role of t.by) expect(findTransition(table, t.action, t.from, role)?.to).toBe(t.to);
    }
  });

  it("never gives one action two transitions from the same status for the same role", () => {
    const keys = transitions.flatMap((t) => t.by.map((role) => `${t.action}/${t.from}/${role}`));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

// A sent order's parcel moves its order (decision 145, ORDER_STATE_AFTER): each order state a parcel
// leads to must be reachable by the Worker itself ("system") from the open states it would come from.
describe("the order follows its parcel", () => {
  /** The open order states each parcel outcome moves from (a case never reopens, money moved stays moved). */
  const FROM: Record<string, readonly OrderState[]> = {
    delivered: ["held"],
    lost: ["held", "handed_over"],
    returned: ["held", "handed_over"],
    cancelled: ["held"],
  };

  it.each(Object.entries(ORDER_STATE_AFTER))("a %s parcel moves the order to %s by the system", (parcel, orderState) => {
    const moves = Object.values(ORDER_TRANSITIONS)
      .flat()
      .filter((t) => t.to === orderState && t.by.includes("system"));
    expect(moves.map((t) => t.from).sort()).toEqual(expect.arrayContaining([...FROM[parcel]].sort()));
    for (const from of FROM[parcel]) expect(ORDER_STATES).toContain(from);
  });
});
