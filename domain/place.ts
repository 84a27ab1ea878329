/**
 * Posten writes poststed in capitals; people read "Tromsø", not "TROMSØ". The preposition stays
 * lower case ("Mo i Rana").
 */
export function titleCasePlace(place: string): string {
  return place
    .toLowerCase()
    .replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase())
    .replace(/ I (?=\S)/g, " i ");
}

/** "9008 Tromsø", or the postal code alone when the place is unknown. */
export function postalPlace(postalCode: string, placeName: string | null | undefined): string {
  return placeName ? `${postalCode} ${titleCasePlace(placeName)}` : postalCode;
}
