// The give-away queue's lifecycle in domain/giveaways.ts (decision 075): every
// (entry status, actor, action) case against one explicit table, the taker's labels and the body
// of "Jeg vil ha den".
import { describe, expect, it } from "vitest";
import {
  GIVEAWAY_ENTRY_STATUSES,
  GIVEAWAY_MESSAGE_MAX_LENGTH,
  GIVEAWAY_TRANSITIONS,
  giveawayTransition,
  isInQueue,
  mineLabel,
  type GiveawayAction,
  type GiveawayActor,
} from "../../domain/giveaways";
import { joinGiveawaySchema, reserveGiveawaySchema } from "../../domain/schemas/giveaways";

const ACTORS: GiveawayActor[] = ["taker", "giver", "other"];
/** Every action of the lifecycle table. */
const ACTIONS = Object.keys(GIVEAWAY_TRANSITIONS) as GiveawayAction[];

/** Written out by hand: every allowed move as "status/actor/action" → the status after it. */
const ALLOWED: Record<string, string> = {
  "withdrawn/taker/join": "waiting",
  "waiting/taker/withdraw": "withdrawn",
  "reserved/taker/withdraw": "withdrawn",
  "waiting/giver/reserve": "reserved",
  "reserved/giver/release": "released",
  "reserved/giver/give": "given",
};

const CASES = GIVEAWAY_ENTRY_STATUSES.flatMap((status) =>
  ACTORS.flatMap((actor) => ACTIONS.map((action) => ({ status, actor, action, key: `${status}/${actor}/${action}` }))),
);

describe("the queue entry lifecycle", () => {
  it("covers 6 statuses × 3 actors × 5 actions", () => {
    expect(CASES).toHaveLength(90);
  });

  it.each(CASES)("$key", ({ status, actor, action, key }) => {
    expect(giveawayTransition(status, actor, action)).toBe(ALLOWED[key] ?? null);
  });

  it("keeps the place of whoever is waiting or reserved when they join again (idempotent)", () => {
    expect(GIVEAWAY_ENTRY_STATUSES.filter(isInQueue)).toEqual(["waiting", "reserved"]);
  });
});

describe("what the taker reads about their place", () => {
  it.each([
    [{ status: "waiting", position: 1 }, "Du er nr. 1 i køen"],
    [{ status: "waiting", position: 3 }, "Du er nr. 3 i køen"],
    [{ status: "reserved", position: null }, "Reservert for deg. Avtal hentingen i samtalen."],
    [{ status: "given", position: null }, "Du har fått leken. Kos deg!"],
    [{ status: "passed", position: null }, "Leken er gitt bort til en annen."],
    [{ status: "released", position: null }, "Giveren har frigitt reservasjonen din."],
    [{ status: "withdrawn", position: null }, "Du har forlatt køen."],
  ] as const)("%o → %s", (mine, label) => {
    expect(mineLabel(mine)).toBe(label);
  });
});

describe("the body of 'Jeg vil ha den'", () => {
  it("trims the message and requires one", () => {
    expect(joinGiveawaySchema.parse({ message: "  Kan hente i kveld  ", status: "given" })).toEqual({ message: "Kan hente i kveld" });
    for (const body of [{}, { message: "   " }, { message: 5 }]) {
      const parsed = joinGiveawaySchema.safeParse(body);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].message).toBe("Skriv en kort melding til giveren");
    }
  });

  it(`allows at most ${GIVEAWAY_MESSAGE_MAX_LENGTH} characters (emoji count once)`, () => {
    expect(joinGiveawaySchema.safeParse({ message: "😀".repeat(GIVEAWAY_MESSAGE_MAX_LENGTH) }).success).toBe(true);
    const long = joinGiveawaySchema.safeParse({ message: "a".repeat(GIVEAWAY_MESSAGE_MAX_LENGTH + 1) });
    expect(long.error?.issues[0].message).toBe("Meldingen kan ikke være lengre enn 300 tegn");
  });

  it("reserves one person by a valid entry id, or the first in line without one", () => {
    expect(reserveGiveawaySchema.parse({})).toEqual({});
    const id = crypto.randomUUID();
    expect(reserveGiveawaySchema.parse({ entry_id: id })).toEqual({ entry_id: id });
    expect(reserveGiveawaySchema.safeParse({ entry_id: "nr-1" }).error?.issues[0].message).toBe("Ugyldig køplass");
  });
});
