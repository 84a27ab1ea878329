// Saved searches: the rules shared by the Worker and the web. How new listings are
// matched and alerted is in docs/decisions/040-saved-search-matching.md and 041-saved-search-alerts.md.

export { formatNewCount, SAVED_SEARCH_NEW_CAP } from "./new-count";

/** How a saved search tells its owner about new matches: at once, once a day, or not at all. */
export const SAVED_SEARCH_ALERTS = ["immediate", "daily", "off"] as const;
export type SavedSearchAlert = (typeof SAVED_SEARCH_ALERTS)[number];

export const SAVED_SEARCH_ALERT_LABELS: Record<SavedSearchAlert, string> = {
  immediate: "Straks",
  daily: "Daglig oppsummering",
  off: "Av",
};

/** A new saved search alerts at once unless its owner picks otherwise. */
export const DEFAULT_SAVED_SEARCH_ALERT: SavedSearchAlert = "immediate";

export const SAVED_SEARCH_NAME_MAX_LENGTH = 60;
/** Saved searches per user: enough for every child and hobby, and a bound on the matching work. */
export const MAX_SAVED_SEARCHES = 50;
/** The daily digest goes out with the first hourly cron run at or after this Oslo hour. */
export const SAVED_SEARCH_DIGEST_HOUR = 18;
/** Listings named in one alert e-mail per saved search; the rest are behind "Se alle treff". */
export const SAVED_SEARCH_MAIL_LISTINGS = 10;
/** How long an unsubscribe link in an alert e-mail works. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

/** The unsubscribe page an alert e-mail links to (domain/routes.ts `savedSearchUnsubscribe`). */
export const UNSUBSCRIBE_PATH = "/lagrede-sok/avmeld";
export const SAVED_SEARCHES_PATH = "/lagrede-sok";

export const SAVED_SEARCH_TEXTS = {
  nameRequired: "Gi søket et navn",
  nameTooLong: `Navnet kan være høyst ${SAVED_SEARCH_NAME_MAX_LENGTH} tegn`,
  alertInvalid: "Velg når du vil få varsel",
  nothingToChange: "Ingenting å endre",
  emptySearch: "Skriv et søkeord eller velg minst ett filter før du lagrer søket.",
  tooMany: `Du kan ha opptil ${MAX_SAVED_SEARCHES} lagrede søk. Slett et du ikke trenger før du lagrer et nytt.`,
  duplicate: "Du har allerede lagret dette søket.",
  notFound: "Fant ikke det lagrede søket.",
  linkInvalid: "Lenken er ugyldig. Logg inn og slå av varselet under Lagrede søk.",
  linkExpired: "Lenken har utløpt. Logg inn og slå av varselet under Lagrede søk.",
  linkGone: "Det lagrede søket finnes ikke lenger, så du får ingen flere varsler om det.",
} as const;

/** The local matching tool's refusal (400). */
export const SAVED_SEARCH_REFUSALS = {
  devListingIds: (max: number) => `Oppgi mellom 1 og ${max} annonse-ID-er i listingIds.`,
} as const;
