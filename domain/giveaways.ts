// The give-away queue for free listings (docs/decisions/075-giveaway-queue.md): "Jeg vil
// ha den" puts a user in the listing's queue once, in the order they joined; the giver reserves the
// toy for one of them (first in line or anyone), releases the reservation or marks the toy given
// away, and everyone still waiting is told. The Worker enforces these rules in SQL
// (worker/features/giveaways/giveaways.ts) and explains a refusal with them; the web shows the buttons they allow.

import { findTransition, type Lifecycle, type Transition } from "./lifecycle";
import type { ListingStatus } from "./taxonomy";

/** One person's place in one listing's queue. */
export const GIVEAWAY_ENTRY_STATUSES = ["waiting", "reserved", "released", "given", "withdrawn", "passed"] as const;
export type GiveawayEntryStatus = (typeof GIVEAWAY_ENTRY_STATUSES)[number];

/** Who acts on an entry: the person in the queue, the listing's owner, or anybody else. */
export type GiveawayActor = "taker" | "giver" | "other";

/**
 * What can be done to an entry. `join` is also how a new entry begins (from no entry at all);
 * `withdraw` is the taker leaving the queue (also out of a reservation).
 */
export type GiveawayAction = "join" | "withdraw" | "reserve" | "release" | "give";

export type GiveawayTransition = Transition<GiveawayEntryStatus, GiveawayActor>;

/**
 * The whole lifecycle of an entry. waiting → reserved (giver) → given | released (giver); waiting
 * or reserved → withdrawn (taker); withdrawn → waiting (taker joins again, at the back of the queue).
 * When the toy is given away, every entry still waiting becomes `passed` (not an action: it follows
 * `give`). Released, given and passed are final: the giver has decided.
 */
export const GIVEAWAY_TRANSITIONS: Lifecycle<GiveawayAction, GiveawayEntryStatus, GiveawayActor> = {
  join: [{ from: "withdrawn", by: ["taker"], to: "waiting" }],
  withdraw: [
    { from: "waiting", by: ["taker"], to: "withdrawn" },
    { from: "reserved", by: ["taker"], to: "withdrawn" },
  ],
  reserve: [{ from: "waiting", by: ["giver"], to: "reserved" }],
  release: [{ from: "reserved", by: ["giver"], to: "released" }],
  give: [{ from: "reserved", by: ["giver"], to: "given" }],
};

/** The status after `action` by `actor` on an entry in `from`, or null when the lifecycle forbids it. */
export function giveawayTransition(from: GiveawayEntryStatus, actor: GiveawayActor, action: GiveawayAction): GiveawayEntryStatus | null {
  return findTransition(GIVEAWAY_TRANSITIONS, action, from, actor)?.to ?? null;
}

/** Joining again while in the queue (waiting or reserved) changes nothing: the place is kept. */
export function isInQueue(status: GiveawayEntryStatus): boolean {
  return status === "waiting" || status === "reserved";
}

/** The listing states in which people may join the queue: on the market, or reserved for someone else. */
export const GIVEAWAY_JOINABLE_LISTING_STATUSES = ["active", "reserved"] as const satisfies readonly ListingStatus[];

export function isJoinableListing(status: ListingStatus): boolean {
  return (GIVEAWAY_JOINABLE_LISTING_STATUSES as readonly ListingStatus[]).includes(status);
}

/** The short message with "Jeg vil ha den": required, trimmed, at most this many characters. */
export const GIVEAWAY_MESSAGE_MAX_LENGTH = 300;

// ---- texts -------------------------------------------------------------------------------------

export const GIVEAWAY_TEXTS = {
  want: "Jeg vil ha den",
  messageLabel: "Melding til giveren",
  messagePlaceholder: "Fortell kort hvorfor du vil ha den og når du kan hente.",
  join: "Still meg i køen",
  joined: "Du står i køen",
  leave: "Forlat køen",
  left: "Du har forlatt køen",
  queueTitle: "Gi bort-kø",
  emptyQueue: "Ingen i køen ennå.",
  reserve: "Reserver",
  reserveFirst: "Første i køen",
  release: "Frigi",
  give: "Marker som gitt bort",
  openChat: "Åpne samtalen",
  reservedFor: (name: string) => `Reservert for ${name}`,
  reservedForYou: "Reservert for deg. Avtal hentingen i samtalen.",
  position: (n: number) => `Du er nr. ${n} i køen`,
  queueCount: (n: number) => (n === 1 ? "1 person i køen" : `${n} personer i køen`),
  givenToYou: "Du har fått leken. Kos deg!",
  givenToOther: "Leken er gitt bort til en annen.",
  releasedYou: "Giveren har frigitt reservasjonen din.",
  withdrawnYou: "Du har forlatt køen.",
  givenAwayDone: (name: string) => `Gitt bort til ${name}`,
} as const;

/** System messages in the reservation's chat (from "Lekebytte"; no names, both read them). */
export const GIVEAWAY_CHAT_TEXTS = {
  reserved: (title: string) => `«${title}» er reservert. Avtal hentingen her i samtalen.`,
  released: "Reservasjonen er frigitt, og leken går videre til neste i køen.",
  withdrawn: "Reservasjonen er avbrutt fordi mottakeren forlot køen.",
  given: (title: string) => `«${title}» er gitt bort. Takk for at dere gir leker et nytt liv!`,
} as const;

/** What the Worker answers when a queue move is refused (409 unless noted). */
export const GIVEAWAY_ERROR_TEXTS = {
  listingNotFound: "Annonse ikke funnet", // 404
  notFree: "Bare annonser som gis bort, har kø.",
  ownListing: "Du kan ikke stille deg i kø for din egen annonse.", // 403
  givenAway: "Leken er allerede gitt bort.",
  unavailable: "Annonsen er ikke lenger tilgjengelig.",
  released: "Giveren har frigitt reservasjonen din, så du kan ikke stille deg i køen igjen.",
  notInQueue: "Du står ikke i køen for denne annonsen.",
  onlyGiver: "Bare den som gir bort leken, kan gjøre dette.", // 403
  emptyQueue: "Det er ingen i køen å reservere for.",
  entryNotWaiting: "Personen står ikke lenger i køen.",
  alreadyReserved: "Leken er allerede reservert. Frigi reservasjonen først.",
  notReserved: "Leken er ikke reservert for noen.",
  notActive: "Annonsen må være aktiv for å kunne reserveres i køen.",
  concurrent: "Køen ble endret samtidig. Last siden på nytt.",
  heldByQueue: "Annonsen er reservert eller gitt bort gjennom gi bort-køen. Bruk køen for å endre den.",
} as const;

// ---- what the API answers -----------------------------------------------------------------------

/** An entry as the giver sees it in the queue panel (in join order). */
export interface GiveawayQueueEntry {
  id: string;
  /** Display name, "Anonym" without one, "Slettet bruker" after the account was deleted. */
  display_name: string;
  message: string;
  status: GiveawayEntryStatus;
  joined_at: string;
  /** The reservation's chat (from the reserve on). */
  conversation_id: string | null;
}

/** The taker's own entry on a listing. */
export interface GiveawayMine {
  status: GiveawayEntryStatus;
  message: string;
  joined_at: string;
  /** Place among those waiting (1 is next), null when not waiting. */
  position: number | null;
  conversation_id: string | null;
}

/** GET /api/giveaways/listings/:id: the same for everyone plus what the viewer's role allows. */
export interface GiveawayListingView {
  listing_id: string;
  /** People waiting (not counting a reservation). */
  waiting_count: number;
  reserved: boolean;
  given: boolean;
  /** The viewer's own place, when signed in and ever in the queue. */
  mine: GiveawayMine | null;
  /** The whole queue, for the giver only: waiting and reserved entries first, then the rest. */
  queue: GiveawayQueueEntry[] | null;
}

/** The line the taker sees about their own entry. */
export function mineLabel(mine: Pick<GiveawayMine, "status" | "position">): string {
  switch (mine.status) {
    case "waiting":
      return GIVEAWAY_TEXTS.position(mine.position ?? 1);
    case "reserved":
      return GIVEAWAY_TEXTS.reservedForYou;
    case "given":
      return GIVEAWAY_TEXTS.givenToYou;
    case "passed":
      return GIVEAWAY_TEXTS.givenToOther;
    case "released":
      return GIVEAWAY_TEXTS.releasedYou;
    case "withdrawn":
      return GIVEAWAY_TEXTS.withdrawnYou;
  }
}
