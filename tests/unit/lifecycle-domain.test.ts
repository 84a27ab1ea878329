// The one lifecycle helper of domain/lifecycle.ts, shared by trades and the give-away queue: which
// transition an action takes from a status for a role, on a small table written here, and two
// properties every real table must have so that the helper's answer is the only possible one.
import { describe, expect, it } from "vitest";
import { ORDER_TRANSITIONS } from "../../domain/orders";
import { GIVEAWAY_TRANSITIONS } from "../../domain/giveaways";
import { findTransition, type Lifecycle } from "../../domain/lifecycle";
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
