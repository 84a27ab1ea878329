// What the two parties and the moderators read about an order's money (docs/decisions/105-held-payments.md):
// the problem report's reasons and photos, the states' labels, the chat's notes and the errors.
import type { OrderState } from "./orders";

export const PROBLEM_REASONS = ["not_received", "not_as_described", "damaged", "other"] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];

export const PROBLEM_REASON_LABELS: Record<ProblemReason, string> = {
  not_received: "Jeg har ikke fått varen",
  not_as_described: "Varen er ikke som beskrevet",
  damaged: "Varen er skadet",
  other: "Annet",
};

export const PROBLEM_TEXT_MIN = 10;
export const PROBLEM_TEXT_MAX = 2000;

/**
 * Photos on a problem report (docs/decisions/108-problem-photos.md): up to 4, uploaded for the order
 * by its buyer when the report is sent, then named by the report. Private evidence: only the two
 * parties and staff see them.
 */
export const PROBLEM_PHOTOS_MAX = 4;
/** Uploads for one order that no report has used yet (a refused report's uploads wait for the cron). */
export const PROBLEM_PHOTO_UPLOADS_MAX = 12;
/** An upload no report has used after this long is removed (the web uploads right before it sends). */
export const PROBLEM_PHOTO_ORPHAN_HOURS = 24;

export const PROBLEM_PHOTO_REFUSALS = {
  tooMany: `Du kan legge ved opptil ${PROBLEM_PHOTOS_MAX} bilder.`, // 400
  duplicate: "Det samme bildet er lagt ved to ganger.", // 400
  invalid: "Ugyldig bilde. Last opp bildet på nytt.", // 400
  notYours: "Fant ikke bildet blant bildene du har lastet opp. Last det opp på nytt.", // 400
  otherOrder: "Bildet er lastet opp til et annet kjøp. Last det opp på nytt her.", // 409
  used: "Bildet er allerede brukt i en sak. Last det opp på nytt.", // 409
  tooManyUploads: "Du har lastet opp for mange bilder til dette kjøpet. Prøv igjen i morgen.", // 409
  notFound: "Bildet finnes ikke", // 404
} as const;

/** The Norwegian alt text of a problem photo (the parties' card and the moderators' case). */
export function problemPhotoAlt(index: number, count: number): string {
  return `Bilde ${index + 1} av ${count} fra kjøperen`;
}

/** What both sides read (the product's words). */
export const ORDER_TEXTS = {
  buyerHeld: "Pengene holdes trygt til du har fått varen",
  sellerHeld: (date: string) => `Pengene utbetales når kjøperen har bekreftet, senest ${date}`,
  /** Before the handover there is no latest date yet: the seller is told what starts the clock. */
  sellerHeldNoDate: "Pengene utbetales når kjøperen har bekreftet. Trykk «Overlevert til kjøper» når kjøperen har fått varen.",
  markHandedOver: "Overlevert til kjøper",
  confirmReceived: "Jeg har fått varen",
  released: "Utbetalt til selger",
  reportProblem: "Meld fra om et problem",
  refunded: "Pengene er betalt tilbake",
  partiallyRefunded: (amount: string) => `Pengene er betalt tilbake (${amount})`,
  cancel: "Avbryt kjøpet",
  problemOpen: "Du har meldt fra om et problem. Pengene holdes til en moderator har sett på saken.",
  problemOpenSeller: "Kjøperen har meldt fra om et problem. Pengene holdes til en moderator har sett på saken.",
  handedOverBuyer: (date: string) => `Selgeren har markert varen som overlevert. Pengene utbetales automatisk ${date} hvis du ikke svarer.`,
  /** A sent toy: the carrier's "delivered" is the handover (decision 145). */
  sellerHeldSent: "Pengene utbetales når kjøperen har bekreftet, senest 48 timer etter at pakken er levert.",
  deliveredBuyer: (date: string) => `Pakken er levert. Pengene utbetales automatisk ${date} hvis du ikke svarer.`,
  cancelFrom: (date: string) => `Har du ikke fått varen innen ${date}, kan du avbryte kjøpet og få pengene tilbake.`,
  payoutPending: "Utbetalingen er på vei til selger.",
  payoutFailedSeller: (fix: string) => `Vi kunne ikke utbetale pengene: ${fix}`,
  problemHint: "Pengene holdes til en moderator har sett på saken. Begge får beskjed i samtalen og på e-post.",
  reasonLabel: "Hva er problemet?",
  textLabel: "Beskriv problemet",
  send: "Send",
  confirmTitle: "Har du fått varen?",
  confirmBody: "Når du bekrefter, utbetales pengene til selgeren. Det kan ikke angres.",
  cancelTitle: "Avbryte kjøpet?",
  cancelBody: "Du får pengene tilbake med én gang, og annonsen blir ledig igjen.",
  handOverTitle: "Har kjøperen fått varen?",
  handOverBody: "Kjøperen får beskjed og har 48 timer på å svare før pengene utbetales til deg.",
  caseTitle: "Betalingssaker",
  refundFull: "Betal tilbake alt",
  refundPartial: "Betal tilbake en del",
  releaseToSeller: "Utbetal til selger",
  /** The moderator is asked once more before money moves for good. */
  refundFullTitle: "Betale tilbake hele beløpet?",
  refundFullBody: (amount: string) => `Kjøperen får ${amount} tilbake. Dette kan ikke angres.`,
  releaseTitle: "Utbetale til selger?",
  releaseBody: (amount: string) => `Selgeren får ${amount} utbetalt. Dette kan ikke angres.`,
  refundAmountLabel: "Beløp som betales tilbake (kr)",
  photosLabel: "Bilder (valgfritt)",
  photosHint: `Opptil ${PROBLEM_PHOTOS_MAX} bilder, JPEG, PNG eller WebP, maks 5 MB per bilde. Bare kjøperen, selgeren og Lekebyttes moderatorer ser dem.`,
  addPhotos: "Legg ved bilder",
  photosFull: `Du har lagt ved ${PROBLEM_PHOTOS_MAX} bilder`,
} as const;

/** The short state on a card, in "Mine kjøp" and "Mine salg" and in /moderation. */
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  held: "Pengene holdes",
  handed_over: "Overlevert til kjøper",
  problem: "Problem meldt",
  released: "Utbetalt til selger",
  refunded: "Pengene er betalt tilbake",
  partially_refunded: "Delvis betalt tilbake",
  cancelled: "Kjøpet er avbrutt",
};

/**
 * The card's badge: a sent toy's delivered parcel is its handover, but the parcel's own line says
 * "Pakken er levert", so the badge keeps saying where the money is.
 */
export function orderStateLabel(state: OrderState, sent: boolean): string {
  return sent && state === "handed_over" ? ORDER_STATE_LABELS.held : ORDER_STATE_LABELS[state];
}

/** The fix a seller is told about when a transfer to their Stripe account is refused. */
export const PAYOUT_FIX_TEXT =
  "Stripe-kontoen din kan ikke ta imot utbetalinger. Åpne «Koble til Stripe» på profilen din og fullfør det Stripe ber om.";

/** System messages in the deal's chat (from "Lekebytte"; no names, both read them). */
export const ORDER_CHAT_TEXTS = {
  handedOver: (date: string) =>
    `Selgeren har markert varen som overlevert. Kjøperen kan bekrefte med «Jeg har fått varen» eller melde fra om et problem. Ellers utbetales pengene automatisk ${date}.`,
  released: "Kjøperen har bekreftet at varen er mottatt. Utbetalt til selger.",
  autoReleased: "Kjøperen svarte ikke innen 48 timer etter overleveringen. Utbetalt til selger.",
  moderatorReleased: "En moderator har avgjort saken: utbetalt til selger.",
  problem: (reason: string) => `Kjøperen har meldt fra om et problem («${reason}»). Pengene holdes til en moderator har sett på saken.`,
  refunded: "En moderator har avgjort saken: Pengene er betalt tilbake til kjøperen.",
  partiallyRefunded: (refund: string, payout: string) =>
    `En moderator har avgjort saken: ${refund} er betalt tilbake til kjøperen, og ${payout} er utbetalt til selger.`,
  cancelled: "Kjøperen avbrøt kjøpet fordi varen ikke var overlevert innen 7 dager. Pengene er betalt tilbake, og annonsen er ledig igjen.",
  sellerDeleted: "Selgeren har slettet kontoen sin. Pengene er betalt tilbake til kjøperen.",
} as const;

/** Refusals of the held-money routes besides the table's (404 and 409). */
export const ORDER_ERROR_TEXTS = {
  notFound: "Kjøpet finnes ikke.", // 404, also to anyone who is not a party
  cancelTooEarly: (date: string) => `Du kan avbryte kjøpet hvis selgeren ikke har markert varen som overlevert innen ${date}.`,
  notDue: "Det er ikke tid for automatisk utbetaling ennå.",
  concurrent: "Kjøpet ble endret samtidig. Last siden på nytt.",
  refundTooLarge: "Beløpet må være mindre enn det kjøperen betalte. Velg «Betal tilbake alt» for å betale tilbake hele beløpet.", // 400
} as const;
