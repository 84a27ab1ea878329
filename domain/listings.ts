// What the Worker answers when a listing cannot be shown, created or changed (docs/product.md
// "Error messages"). The refusals of a listing held by a trade or the give-away queue are in
// listing-holds.ts; a listing's own status moves in listing-lifecycle.ts.

export const LISTING_REFUSALS = {
  /** 404: also for a listing the viewer may not see, and wherever another feature looks a listing up. */
  notFound: "Kunne ikke hente annonse",
  notFoundOrNotOwn: "Annonsen ble ikke funnet eller du har ikke tilgang til den.", // 404 or 403
  invalidImage: "Ugyldig bilde", // 400, also its field text
  imageGone: "Bildet finnes ikke lenger. Last det opp på nytt.", // 400
  imageGoneField: "Bildet finnes ikke",
  imageRequired: "Du må laste opp minst ett bilde", // 400, also its field text
  statusNotAllowed: "Annonsen kan ikke få denne statusen nå.", // 409
  concurrent: "Annonsen ble endret samtidig. Last siden på nytt.", // 409
} as const;
