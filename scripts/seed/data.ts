// Fixed demo content: realistic Norwegian listings, conversations, a trade offer, favourites and a
// moderation case. Deterministic text and layout; ids and timestamps are made at seed time (times are
// relative to "now", so the home page always shows fresh relative times).
//
// The parts, by kind: data-base.ts (accounts, units, shapes), data-listings-*.ts (the listings by
// owner), data-conversations.ts (chats and the pending trade offer), data-deals.ts (finished deals,
// their listings and reviews); favourites and the moderation case are here.
import { type AccountKey, DAY, type DemoListing, HOUR, MIN } from "./data-base";
import { CONVERSATIONS, TRADE_OFFER, type DemoConversation } from "./data-conversations";
import { DEAL_LISTINGS, DEMO_DEALS, type DemoDeal } from "./data-deals";
import { EMIL_NORA_MARTE_LISTINGS } from "./data-listings-emil-nora-marte";
import { INGRID_LARS_SOFIE_LISTINGS } from "./data-listings-ingrid-lars-sofie";
import { KARI_OLA_LISTINGS } from "./data-listings-kari-ola";

export { type AccountKey, type DemoListing, type DemoMessage, minutes } from "./data-base";
export { CONVERSATIONS, DEMO_DEALS, TRADE_OFFER, type DemoConversation, type DemoDeal };

export const LISTINGS: DemoListing[] = [...KARI_OLA_LISTINGS, ...INGRID_LARS_SOFIE_LISTINGS, ...EMIL_NORA_MARTE_LISTINGS, ...DEAL_LISTINGS];

export const FAVOURITES: { user: AccountKey; listing: string; ago: number }[] = [
  { user: "kari", listing: "I1", ago: 20 * HOUR },
  { user: "kari", listing: "E1", ago: 2 * DAY },
  { user: "ola", listing: "K1", ago: 85 * MIN },
  { user: "ingrid", listing: "S1", ago: 6 * HOUR },
  { user: "sofie", listing: "N1", ago: 20 * MIN },
];

/** One resolved case (the hidden listing) and one pending report for the moderation dashboard. */
export const REPORTS = [
  {
    reporter: "lars" as AccountKey,
    listing: "E3",
    reason: "Villedende informasjon",
    description: "Tittelen sier Lego, men beskrivelsen sier at klossene ikke er originale.",
    priority: "normal",
    ago: 2 * DAY,
    resolved: {
      moderator: "marte" as AccountKey,
      action: "hide",
      notes: "Skjult til selger retter tittelen.",
      ago: 1 * DAY,
    },
  },
  {
    reporter: "sofie" as AccountKey,
    listing: "O2",
    reason: "Falsk annonse",
    description: "Bildet ser ikke ut som en bil med firehjulstrekk.",
    priority: "low",
    ago: 5 * HOUR,
    resolved: null,
  },
];
