// The shipping feature for the SPA: the pickup points and parcel lockers a buyer chooses from at
// checkout ("Sending"). Under the "me" key like the rest of a signed-in buyer's checkout, so signing
// out removes it.
import { queryOptions } from "@tanstack/react-query";
import type { Carrier } from "../../domain/carriers";
import { api, call, type ResponseBody } from "./client";

/** GET /api/shipping/pickup-points: the nearest first. */
export type PickupPoints = ResponseBody<(typeof api.shipping)["pickup-points"]["$get"]>;
export type PickupPoint = PickupPoints["pickup_points"][number];
export type PickupDelivery = "parcel_locker" | "pickup_point";

export interface PickupPointsQuery {
  carrier: Carrier;
  delivery: PickupDelivery;
  postal_code: string;
}

export const shippingKeys = {
  pickupPoints: (q: PickupPointsQuery) => ["me", "shipping", "pickup-points", q.carrier, q.delivery, q.postal_code] as const,
};

export const pickupPointsQuery = (q: PickupPointsQuery) =>
  queryOptions({
    queryKey: shippingKeys.pickupPoints(q),
    queryFn: ({ signal }) => call(api.shipping["pickup-points"].$get({ query: { ...q } }, { init: { signal } })),
    // The carrier's list changes slowly; a buyer going back and forth between methods asks once.
    staleTime: 5 * 60_000,
    retry: false,
  });
