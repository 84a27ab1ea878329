// Helthjem's service points at checkout (decision 154): GET /api/shipping/pickup-points with
// carrier=helthjem answers Helthjem's own shops near the buyer from the sandbox carrier, a parcel
// locker (which Helthjem does not have, decision 145) is refused as a delivery not offered, and a
// checkout's chosen point is checked against the same search (chosenPickupPoint).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHIPPING_CHOICE_REFUSALS, type PickupPointsResponse } from "../../../domain/carriers";
import type { Bindings } from "../../../worker/env";
import { chosenPickupPoint, PICKUP_POINT_TEXTS } from "../../../worker/features/carriers/pickup-points";
import { errorOf } from "../support/http";
import { signedIn } from "../support/payments";

const bindings = env as Bindings;

describe("Helthjem's service points", () => {
  it("lists Helthjem's shops nearest the postal code, as the checkout shows them", async () => {
    const { client } = await signedIn();
    const res = await client.get("/api/shipping/pickup-points?carrier=helthjem&delivery=pickup_point&postal_code=5003");
    expect(res.status).toBe(200);
    const { pickup_points } = (await res.json()) as PickupPointsResponse;
    expect(pickup_points).toHaveLength(5);
    expect(pickup_points[0]).toMatchObject({
      kind: "manned",
      postal_code: "5003",
      city: "BERGEN",
      opening_hours: "Man-Fre: 0800-2200, Lør: 0800-1800",
    });
    expect(pickup_points[0].id).toMatch(/^75003\d{2}$/);
  });

  it("refuses a parcel locker with Helthjem: a delivery it does not offer", async () => {
    const { client } = await signedIn();
    const res = await client.get("/api/shipping/pickup-points?carrier=helthjem&delivery=parcel_locker&postal_code=5003");
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(SHIPPING_CHOICE_REFUSALS.notOffered);
  });

  it("takes a chosen point the search gives, and refuses one it does not", async () => {
    const [first] = (
      (await (
        await (await signedIn()).client.get("/api/shipping/pickup-points?carrier=helthjem&delivery=pickup_point&postal_code=0150")
      ).json()) as PickupPointsResponse
    ).pickup_points;
    expect(await chosenPickupPoint(bindings, "helthjem", "pickup_point", "0150", first.id)).toEqual(first);
    await expect(chosenPickupPoint(bindings, "helthjem", "pickup_point", "5003", first.id)).rejects.toMatchObject({
      message: PICKUP_POINT_TEXTS.unknown,
    });
  });

  it("without Helthjem configured, says the list cannot be fetched now (503)", async () => {
    await expect(
      chosenPickupPoint({ ...bindings, HELTHJEM_CLIENT_ID: undefined } as Bindings, "helthjem", "pickup_point", "5003", "7500300"),
    ).rejects.toMatchObject({ message: PICKUP_POINT_TEXTS.unavailable });
  });
});
