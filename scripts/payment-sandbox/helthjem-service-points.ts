// Helthjem's own shops as the sandbox's service points: the same five near a postal code on every
// run, none in the postal codes the sandbox plays as not covered (docs/decisions/154-helthjem-carrier.md).
import { nearbyPlaces } from "./bring-places";

/** Svalbard: no Helthjem delivery (the sandbox's stand-in for an address Helthjem does not cover). */
export const NOT_COVERED_RE = /^917\d$/;
const SERVICE_POINTS_SHOWN = 5;

export interface HelthjemServicePoint {
  servicePointExternalId: string;
  servicePointName: string;
  visitingAddress: { streetName: string; streetNumber: string; postalCode: string; postalName: string; countryCode: "NO" };
  openingHours: Array<{ day: string; from1: string; to1: string }>;
  coordinates: { latitude: number; longitude: number };
  /** Metres from the postal code (the sandbox's field: Helthjem's clients show the order only). */
  distanceInMeters: number;
}

const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

/** Five of Helthjem's own shops near the postal code, nearest first, the same on every run. */
export function servicePointsNear(postalCode: string): HelthjemServicePoint[] {
  if (NOT_COVERED_RE.test(postalCode)) return [];
  return nearbyPlaces(postalCode, SERVICE_POINTS_SHOWN, 29).map((place, i) => {
    const [streetName, streetNumber] = [place.street.replace(/ \d+$/, ""), place.street.replace(/^.* /, "")];
    return {
      servicePointExternalId: `7${postalCode}${String(i).padStart(2, "0")}`,
      servicePointName: `${place.shop} ${place.area}`,
      visitingAddress: { streetName, streetNumber, postalCode, postalName: place.city, countryCode: "NO" },
      openingHours: DAYS.map((day) => ({ day, from1: "0800", to1: day === "SATURDAY" ? "1800" : "2200" })),
      coordinates: { latitude: place.latitude, longitude: place.longitude },
      distanceInMeters: Math.round(place.km * 1000),
    };
  });
}

export function servicePointById(id: string): HelthjemServicePoint | null {
  const m = /^7(\d{4})\d{2}$/.exec(id);
  return m ? (servicePointsNear(m[1]).find((p) => p.servicePointExternalId === id) ?? null) : null;
}
