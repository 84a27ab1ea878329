// Local mode's POST /api/dev/cron/:step (decision 153): one step of the hourly cron as if the clock
// showed `at`, so that the durability bench can let the automatic release come 48 hours after a
// delivered parcel. Production answers 404 (deploy-safety.integration.test.ts).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Client, errorOf } from "../support/http";
import { moneyFor, paidOrder } from "../support/orders";

const HOUR = 3_600_000;
const state = async (id: string) => env.DB.prepare("SELECT state FROM orders WHERE id = ?1").bind(id).first<string>("state");

describe("POST /api/dev/cron/:step", () => {
  it("runs the orders step at the given moment: nothing is released before the 48 hours, the release once after", async () => {
    const order = await paidOrder("card");
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`)).status).toBe(200);
    const cron = new Client();

    const now = await cron.post("/api/dev/cron/orders", {});
    expect(now.status).toBe(200);
    expect(await state(order.orderId)).toBe("handed_over");

    const at = new Date(Date.now() + 49 * HOUR).toISOString();
    const later = await cron.post("/api/dev/cron/orders", { at });
    expect(await later.json()).toMatchObject({ step: "orders", at });
    expect(await state(order.orderId)).toBe("released");
    await cron.post("/api/dev/cron/orders", { at });
    expect((await moneyFor(order)).transfers).toHaveLength(1);
  });

  it("refuses a step the cron does not have (404) and a moment that is not one (400)", async () => {
    const cron = new Client();
    const unknown = await cron.post("/api/dev/cron/everything", {});
    expect([unknown.status, (await errorOf(unknown)).message]).toEqual([404, "Fant ikke dette steget i cron-jobben."]);
    const bad = await cron.post("/api/dev/cron/orders", { at: "i morgen" });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe("Oppgi tidspunktet som en ISO-dato");
  });
});
