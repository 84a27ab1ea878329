// Finished deals with their reviews, and the listings they were about.
import { TRADE_CHAT_TEXTS } from "../../domain/trades";
import { type AccountKey, DAY, type DemoListing, type DemoMessage, HOUR, MIN } from "./data-base";

// The listings of the finished deals below: two trades between Kari and Ola, a sale by Lars.
export const DEAL_LISTINGS: DemoListing[] = [
  {
    ref: "K8",
    owner: "kari",
    title: "Brio togbane med bro og tunnel",
    description: "Brio togbane med 30 skinner, bro, tunnel og to tog. Byttet bort.",
    category: "biler",
    age: "3-5 år",
    condition: 4,
    price: 300,
    trade: true,
    postalCode: "0150",
    ago: 30 * DAY,
    status: "traded",
    image: { motif: "train", color: "#c0392b", count: 1 },
  },
  {
    ref: "O7",
    owner: "ola",
    title: "Duplo dyrehage",
    description: "Duplo dyrehage med dyr, gjerder og dyrepasser. Byttet bort.",
    category: "lego",
    age: "0-2 år",
    condition: 4,
    price: 250,
    trade: true,
    postalCode: "5003",
    ago: 28 * DAY,
    status: "traded",
    image: { motif: "bricks", color: "#2e86de", count: 1 },
  },
  {
    ref: "L6",
    owner: "lars",
    title: "Sparkesykkel med lys i hjulene",
    description: "Sparkesykkel for 3–6 år med lys i hjulene og justerbart styre. Solgt.",
    category: "ute-lek",
    age: "3-5 år",
    condition: 4,
    price: 200,
    trade: false,
    postalCode: "4006",
    ago: 6 * DAY,
    status: "sold",
    image: { motif: "scooter", color: "#8e44ad", count: 1 },
  },
  {
    ref: "O8",
    owner: "ola",
    title: "Gulvpuslespill med dinosaurer, 48 brikker",
    description: "Store, tykke brikker med dinosaurer. Alle brikkene er med. Byttet bort.",
    category: "puslespill",
    age: "3-5 år",
    condition: 4,
    price: 100,
    trade: true,
    postalCode: "5003",
    ago: 2 * DAY + 22 * HOUR,
    status: "traded",
    image: { motif: "puzzle", color: "#27ae60", count: 1 },
  },
];

/**
 * Completed deals with reviews (decision 070). A sale: `listing` sold by its owner to
 * `other`. A trade: `other` offered `offered` for `listing` and both confirmed the handover.
 * `completed` is minutes ago; a review's reviewee is the deal's other party.
 */
export interface DemoDeal {
  kind: "sale" | "trade";
  listing: string;
  other: AccountKey;
  offered?: string;
  /** A trade: when the accepted offer was sent (minutes ago; default two days before `completed`). */
  proposed?: number;
  /** A trade: earlier offers in the same conversation that the owner turned down. */
  rejected?: { offered: string; proposed: number; answered: number; message: string | null }[];
  completed: number;
  messages: DemoMessage[];
  reviews: { from: AccountKey; rating: 1 | 2 | 3 | 4 | 5; text: string | null; ago: number }[];
}

export const DEMO_DEALS: DemoDeal[] = [
  {
    kind: "sale",
    listing: "I2",
    other: "kari",
    completed: 40 * DAY,
    messages: [
      { from: "kari", text: "Hei! Da er skøytene betalt. Kan jeg hente dem i morgen ettermiddag?", ago: 40 * DAY - 10 * MIN, read: true },
      { from: "ingrid", text: "Supert, det passer fint. Jeg er hjemme etter kl. 16.", ago: 40 * DAY - 30 * MIN, read: true },
    ],
    reviews: [
      {
        from: "kari",
        rating: 5,
        text: "Skøytene var akkurat som beskrevet, og Ingrid var hyggelig og fleksibel med hentingen.",
        ago: 39 * DAY,
      },
      { from: "ingrid", rating: 5, text: "Betalte med en gang og kom som avtalt. Anbefales!", ago: 38 * DAY },
    ],
  },
  {
    kind: "trade",
    listing: "O7",
    other: "kari",
    offered: "K8",
    completed: 20 * DAY,
    messages: [
      { from: "kari", text: "Byttet er bekreftet her. Takk, dyrehagen er allerede i full bruk!", ago: 20 * DAY - 5 * MIN, read: true },
      { from: "ola", text: "Så bra! Togbanen er en stor hit her også 🚂", ago: 20 * DAY - 20 * MIN, read: true },
    ],
    reviews: [
      { from: "ola", rating: 4, text: "Fint bytte. Togbanen var litt mer brukt enn bildene viste, men alt fungerer.", ago: 19 * DAY },
      { from: "kari", rating: 5, text: "Rask å svare og godt pakket. Gjerne flere bytter!", ago: 19 * DAY },
    ],
  },
  {
    kind: "sale",
    listing: "L6",
    other: "ola",
    completed: 2 * DAY,
    messages: [{ from: "ola", text: "Takk! Sparkesykkelen kom fram i dag, sønnen min er i himmelen.", ago: 1 * DAY, read: false }],
    // Only Ola has written: hidden until Lars writes his or the 14 days are over (the prompt shows
    // for Lars in the chat).
    reviews: [{ from: "ola", rating: 5, text: "Rask sending og akkurat som beskrevet.", ago: 20 * HOUR }],
  },
  {
    // The chat after a whole trade: a refused offer, the completed one, the notices and
    // the review prompt still open for both, over three days.
    kind: "trade",
    listing: "K7",
    other: "ola",
    offered: "O8",
    rejected: [{ offered: "O5", proposed: 2 * DAY + 23 * HOUR, answered: 2 * DAY + 21 * HOUR, message: "Walkie-talkiene mot bøkene?" }],
    proposed: 2 * DAY + 20 * HOUR,
    completed: 25 * HOUR,
    messages: [
      { from: "ola", text: "Hei! Er dinosaurbøkene fortsatt ledige? Sønnen min på seks er helt dinosaurgal 🦕", ago: 3 * DAY, read: true },
      { from: "kari", text: "Hei! Ja, de er ledige. Jeg bytter gjerne, helst mot et puslespill.", ago: 3 * DAY - 20, read: true },
      {
        from: "system",
        text: TRADE_CHAT_TEXTS.created("Walkie-talkie-sett, 2 stk", "Bøker om dinosaurer (6 stk)"),
        ago: 2 * DAY + 23 * HOUR,
        read: true,
      },
      { from: "system", text: TRADE_CHAT_TEXTS.rejected, ago: 2 * DAY + 21 * HOUR, read: true },
      { from: "kari", text: "Takk, men vi har walkie-talkier fra før. Har du et puslespill?", ago: 2 * DAY + 21 * HOUR - 1, read: true },
      {
        from: "ola",
        text: "Ja! Et gulvpuslespill med dinosaurer, 48 store brikker. Jeg sender et nytt forslag.",
        ago: 2 * DAY + 20 * HOUR + 5,
        read: true,
      },
      {
        from: "system",
        text: TRADE_CHAT_TEXTS.created("Gulvpuslespill med dinosaurer, 48 brikker", "Bøker om dinosaurer (6 stk)"),
        ago: 2 * DAY + 20 * HOUR,
        read: true,
      },
      { from: "system", text: TRADE_CHAT_TEXTS.accepted, ago: 2 * DAY + 19 * HOUR, read: true },
      {
        from: "kari",
        text: "Perfekt, det tar vi! Jeg er i Bergen på torsdag og kan ta med bøkene.",
        ago: 2 * DAY + 19 * HOUR - 2,
        read: true,
      },
      { from: "ola", text: "Så fint. Skal vi si Festplassen kl. 17?", ago: 2 * DAY + 18 * HOUR, read: true },
      { from: "kari", text: "Avtale! Jeg har på meg en gul regnjakke.", ago: 2 * DAY + 17 * HOUR, read: true },
      { from: "ola", text: "Takk for i dag! Han har allerede lest den store klaffeboka to ganger.", ago: 25 * HOUR + 10, read: true },
      { from: "system", text: TRADE_CHAT_TEXTS.completed, ago: 25 * HOUR, read: true },
      { from: "kari", text: "Så koselig! Puslespillet ble lagt tre ganger i går kveld 😄", ago: 24 * HOUR, read: true },
      { from: "ola", text: "Ha en fin helg, og takk for et fint bytte!", ago: 40 * MIN, read: false },
    ],
    // None written yet: both see "Gi vurdering" in the chat.
    reviews: [],
  },
];
