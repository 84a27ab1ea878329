// The demo conversations still going on, and the pending trade offer in one of them.
import { type AccountKey, DAY, type DemoMessage, HOUR, MIN } from "./data-base";

export interface DemoConversation {
  listing: string;
  buyer: AccountKey;
  messages: DemoMessage[];
}

export const CONVERSATIONS: DemoConversation[] = [
  {
    listing: "K1",
    buyer: "ola",
    messages: [
      { from: "ola", text: "Hei! Er legoklossene fortsatt til salgs?", ago: 80 * MIN, read: true },
      { from: "kari", text: "Hei! Ja, de er fortsatt ledige 😊", ago: 72 * MIN, read: true },
      { from: "ola", text: "Så bra! Jeg bor i Bergen – kan du sende med Posten? Jeg betaler frakten.", ago: 65 * MIN, read: true },
      { from: "kari", text: "Det går fint. Boksen veier rundt 4 kg, så frakten blir ca. 150 kr.", ago: 58 * MIN, read: true },
      { from: "ola", text: "Avtale! Hva sier du til 400 kr pluss frakt?", ago: 12 * MIN, read: false },
    ],
  },
  {
    listing: "O1",
    buyer: "kari",
    messages: [
      { from: "kari", text: "Hei! Er du interessert i å bytte Duplo-båten mot perlebrett med 5000 perler?", ago: 100 * MIN, read: true },
      {
        from: "ola",
        text: "Hei! Det kan være aktuelt, datteren min elsker perler. Send gjerne et bytteforslag.",
        ago: 92 * MIN,
        read: true,
      },
      { from: "kari", text: "Supert, jeg sender et forslag nå!", ago: 86 * MIN, read: false },
    ],
  },
  {
    listing: "L1",
    buyer: "ingrid",
    messages: [
      { from: "ingrid", text: "Hei! Er hestestallen komplett med hestene?", ago: 2 * DAY + 2 * HOUR, read: true },
      { from: "lars", text: "Hei! Ja, alle delene og begge hestene er med. Instruksjonsboka også.", ago: 2 * DAY + 1 * HOUR, read: true },
      { from: "ingrid", text: "Supert, jeg tar den! Kan du holde den av til lørdag?", ago: 2 * DAY + 50 * MIN, read: true },
      { from: "lars", text: "Det går fint, jeg markerer den som reservert.", ago: 2 * DAY + 30 * MIN, read: true },
    ],
  },
  {
    listing: "N2",
    buyer: "anders",
    messages: [
      { from: "anders", text: "Hei! Er fargestiftene fortsatt ledige? Jeg kan hente i kveld.", ago: 3 * HOUR, read: true },
      { from: "nora", text: "Hei! Ja, de er dine om du vil. Passer det etter kl. 18?", ago: 2 * HOUR + 40 * MIN, read: false },
    ],
  },
];

/** A pending trade: Kari offers her pegboard (K2) for Ola's Duplo boat (O1), in their conversation. */
export const TRADE_OFFER = {
  listing: "O1", // the conversation's listing and the requested listing
  from: "kari" as AccountKey,
  offered: "K2",
  requested: "O1",
  message: "Perlebrett med 5000 perler i mange farger mot Duplo-båten?",
  ago: 85 * MIN,
  validDays: 7,
};
