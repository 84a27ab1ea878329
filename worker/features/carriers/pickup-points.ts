// The pickup points and parcel lockers a buyer chooses from at checkout, nearest first, straight from
// the carrier's pickup-point search (decision 147), and the check that a checkout's chosen point is
// one of them. Nothing is cached: the carrier's list changes (opening hours, closed shops), and a
// buyer asks a few times per purchase.
import {
  type Carrier,
  type DeliveryMethod,
  type PickupPointView,
  SHIPPING_CHOICE_REFUSALS,
  SHIPPING_OFFERS,
} from "../../../domain/carriers";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { BringClient, type CarrierResult, type PickupPoint } from "./carrier-client";
import { bringConfig, helthjemConfig } from "./carrier-config";
import { HelthjemClient } from "./helthjem-client";

/** At most this many: the checkout's list on a phone. */
export const PICKUP_POINTS_SHOWN = 10;

export const PICKUP_POINT_TEXTS = {
  unavailable: "Vi får ikke hentet hentestedene akkurat nå. Prøv igjen om litt.",
  unknown: "Hentestedet finnes ikke i nærheten av postnummeret. Velg et annet.",
} as const;

export type PickupDelivery = Extract<DeliveryMethod, "parcel_locker" | "pickup_point">;

/**
 * The carrier's points near the postal code of the kind the delivery takes; 400 for a delivery the
 * carrier does not offer (Helthjem has no parcel lockers, decision 145), 503 when the carrier cannot answer.
 */
export async function pickupPointsNear(
  env: Bindings,
  carrier: Carrier,
  delivery: PickupDelivery,
  postalCode: string,
): Promise<PickupPointView[]> {
  if (!SHIPPING_OFFERS[carrier][delivery])
    throw new AppError("VALIDATION", SHIPPING_CHOICE_REFUSALS.notOffered, { delivery: SHIPPING_CHOICE_REFUSALS.notOffered });
  const kind = delivery === "parcel_locker" ? "locker" : "manned";
  const points = await searchCarrier(env, carrier, postalCode, kind);
  return points
    .filter((p) => p.kind === kind)
    .slice(0, PICKUP_POINTS_SHOWN)
    .map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      address: p.address,
      postal_code: p.postalCode,
      city: p.city,
      opening_hours: p.openingHours,
      distance_km: p.distanceKm,
    }));
}

/** The chosen point, if it is one the buyer could have been shown for this postal code; 400 otherwise. */
export async function chosenPickupPoint(
  env: Bindings,
  carrier: Carrier,
  delivery: PickupDelivery,
  postalCode: string,
  id: string,
): Promise<PickupPointView> {
  const found = (await pickupPointsNear(env, carrier, delivery, postalCode)).find((p) => p.id === id);
  if (!found) throw new AppError("VALIDATION", PICKUP_POINT_TEXTS.unknown, { pickup_point_id: PICKUP_POINT_TEXTS.unknown });
  return found;
}

async function searchCarrier(env: Bindings, carrier: Carrier, postalCode: string, kind: "manned" | "locker"): Promise<PickupPoint[]> {
  const result = await carrierSearch(env, carrier, postalCode, kind);
  if (!result) throw new AppError("SERVICE_UNAVAILABLE", PICKUP_POINT_TEXTS.unavailable);
  if (result.ok) return result.value;
  if (result.kind === "refused") throw new AppError("VALIDATION", result.message, { postal_code: result.message });
  console.error("Pickup points unavailable", carrier, result.status, result.detail);
  throw new AppError("SERVICE_UNAVAILABLE", PICKUP_POINT_TEXTS.unavailable);
}

/** The carrier's own search, or null when the carrier is not configured here. */
async function carrierSearch(
  env: Bindings,
  carrier: Carrier,
  postalCode: string,
  kind: "manned" | "locker",
): Promise<CarrierResult<PickupPoint[]> | null> {
  if (carrier === "bring") {
    const config = bringConfig(env);
    return config && new BringClient(config).pickupPoints(postalCode, kind);
  }
  // Helthjem's service points are its own shops (no lockers): the one kind it has.
  const config = helthjemConfig(env);
  return config && new HelthjemClient(config).servicePoints(postalCode);
}
