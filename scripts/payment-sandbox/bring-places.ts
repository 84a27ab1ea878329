// The sandbox's pickup points: made up, but Norwegian-looking and the same for the same postal code
// on every run (a seeded generator), so tests and the tester page can name one. Shaped as Bring's
// Pickup Point API answers (GET /pickuppoint/api/pickuppoint/{country}/postalCode/{code}.json):
// `{ pickupPoint: [...] }`, nearest first, manned points (type 4, "Post i Butikk") and parcel lockers
// (type 37, "Pakkeboks").
import { rng } from "../seed/raster";

export type PickupPointKind = "manned" | "locker";

export interface BringPickupPoint {
  id: string;
  unitId: string;
  name: string;
  address: string;
  postalCode: string;
  city: string;
  countryCode: "NO";
  visitingAddress: string;
  visitingPostalCode: string;
  visitingCity: string;
  locationDescription: string;
  openingHoursNorwegian: string;
  openingHoursEnglish: string;
  latitude: number;
  longitude: number;
  distanceInKm: string;
  distanceType: "DRIVING";
  /** Bring's pickup point type: "4" Post i Butikk (manned), "37" Pakkeboks (locker). */
  type: "4" | "37";
}

const SHOPS = ["Kiwi", "Rema 1000", "Coop Extra", "Coop Prix", "Joker", "Spar", "Meny", "Bunnpris", "Narvesen", "Coop Mega"];
const STREETS = [
  "Storgata",
  "Kirkeveien",
  "Skolegata",
  "Bjørkelia",
  "Fjordveien",
  "Parkveien",
  "Torget",
  "Bekkeveien",
  "Stasjonsveien",
  "Granåsen",
  "Kongens gate",
  "Sjøgata",
];
const AREAS = ["Sentrum", "Nord", "Sør", "Øst", "Vest", "Senter", "Torg", "Stasjon"];

/** A town for each first digit of the postal code, roughly where Norway's postal codes run. */
const TOWNS: Array<{ city: string; lat: number; lon: number }> = [
  { city: "OSLO", lat: 59.91, lon: 10.75 },
  { city: "LILLESTRØM", lat: 59.96, lon: 11.05 },
  { city: "HAMAR", lat: 60.79, lon: 11.07 },
  { city: "DRAMMEN", lat: 59.74, lon: 10.2 },
  { city: "STAVANGER", lat: 58.97, lon: 5.73 },
  { city: "BERGEN", lat: 60.39, lon: 5.32 },
  { city: "ÅLESUND", lat: 62.47, lon: 6.15 },
  { city: "TRONDHEIM", lat: 63.43, lon: 10.39 },
  { city: "BODØ", lat: 67.28, lon: 14.4 },
  { city: "TROMSØ", lat: 69.65, lon: 18.96 },
];

export const POSTAL_CODE_RE = /^\d{4}$/;

const HOURS_MANNED = { no: "Man-Fre: 0700-2300, Lør: 0800-2100", en: "Mon-Fri: 0700-2300, Sat: 0800-2100" };
const HOURS_LOCKER = { no: "Man-Søn: 0000-2400", en: "Mon-Sun: 0000-2400" };

/** A made-up shop near a postal code, before a carrier gives it its own shape. */
export interface NearbyPlace {
  shop: string;
  area: string;
  street: string;
  city: string;
  latitude: number;
  longitude: number;
  /** Driving distance from the postal code, growing with the index. */
  km: number;
}

/**
 * `count` shops near the postal code, nearest first, seeded by the postal code and `salt` (each
 * carrier its own), so the same postal code always gives the same places.
 */
export function nearbyPlaces(postalCode: string, count: number, salt: number): NearbyPlace[] {
  const next = rng(Number(postalCode) * 7919 + salt);
  const town = TOWNS[Number(postalCode[0])];
  const places: NearbyPlace[] = [];
  let km = 0.2;
  for (let i = 0; i < count; i++) {
    const shop = SHOPS[Math.floor(next() * SHOPS.length)];
    const area = AREAS[Math.floor(next() * AREAS.length)];
    const street = `${STREETS[Math.floor(next() * STREETS.length)]} ${1 + Math.floor(next() * 80)}`;
    km += 0.3 + next() * 1.2;
    places.push({
      shop,
      area,
      street,
      city: town.city,
      latitude: Number((town.lat + (next() - 0.5) * 0.05).toFixed(5)),
      longitude: Number((town.lon + (next() - 0.5) * 0.08).toFixed(5)),
      km: Number(km.toFixed(1)),
    });
  }
  return places;
}

/** Twelve places near the postal code, nearest first: every third one a parcel locker. */
export function pickupPointsNear(postalCode: string): BringPickupPoint[] {
  return nearbyPlaces(postalCode, 12, 17).map((place, i) => {
    const kind: PickupPointKind = i % 3 === 1 ? "locker" : "manned";
    const name = kind === "locker" ? `Pakkeboks ${place.shop} ${place.area}` : `${place.shop} ${place.area}`;
    const hours = kind === "locker" ? HOURS_LOCKER : HOURS_MANNED;
    return {
      id: pickupPointId(postalCode, i, kind),
      unitId: pickupPointId(postalCode, i, kind),
      name,
      address: place.street,
      postalCode,
      city: place.city,
      countryCode: "NO",
      visitingAddress: place.street,
      visitingPostalCode: postalCode,
      visitingCity: place.city,
      locationDescription: kind === "locker" ? "Ved inngangen til butikken" : "Ved kassen",
      openingHoursNorwegian: hours.no,
      openingHoursEnglish: hours.en,
      latitude: place.latitude,
      longitude: place.longitude,
      distanceInKm: place.km.toFixed(1),
      distanceType: "DRIVING",
      type: kind === "locker" ? "37" : "4",
    };
  });
}

/** The id says where the point is, so a booking can find it again without a store. */
function pickupPointId(postalCode: string, index: number, kind: PickupPointKind): string {
  return `${kind === "locker" ? "9" : "1"}${postalCode}${String(index).padStart(2, "0")}`;
}

/** The place with this id, or null when no search could have returned it. */
export function pickupPointById(id: string): BringPickupPoint | null {
  const m = /^[19](\d{4})\d{2}$/.exec(id);
  if (!m) return null;
  return pickupPointsNear(m[1]).find((p) => p.id === id) ?? null;
}

export function pickupPointKind(point: BringPickupPoint): PickupPointKind {
  return point.type === "37" ? "locker" : "manned";
}
