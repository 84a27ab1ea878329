// The durability bench's sent toys (decisions 145, 149, 150, 153). Before the stream, each order
// paid with "Sending" has its parcel booked (the shipment-booking queue, or the cron's booking step
// when the queue is slow) and then delivered through the sandbox carrier: the tracking webhooks the
// sandbox signed (HANDED_IN, IN_TRANSIT, DELIVERED), delivered by the bench as the carrier would.
// During the stream, across the SIGKILL, each is released: every other one by its buyer's
// "Jeg har fått varen", the others by the cron's automatic release 48 hours after delivery. The
// bench moves the cron's clock (local mode's POST /api/dev/cron/orders with `at` just past the
// order's release_due_at), so a tick releases its own order and any earlier one still waiting;
// after the stream one last tick releases what the stream did not reach.
import { SANDBOX_KEYS } from "../../scripts/payment-sandbox/dev-keys.mjs";
import { CARRIER_SIGNATURE_HEADER, carrierSignatureHeader } from "../../scripts/payment-sandbox/webhooks";
import type { OrderView } from "../../domain/order-views";
import { type Answer, type Sale, type World, api, send, server } from "./durability-world";
import { sleep } from "./support";

/** The hourly cron's one step, as if its clock showed `at` (local mode only). */
export function cronAt(step: "orders" | "shipments", at: Date): Promise<Answer> {
  return send(
    `${server.base}/api/dev/cron/${step}`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.origin },
      body: JSON.stringify({ at: at.toISOString() }),
    },
    200,
  );
}

/** A held tracking webhook of the sandbox carrier, signed anew as the carrier signs every attempt. */
async function deliverTracking(request: { url: string; body: string }): Promise<Answer> {
  return send(
    request.url,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        [CARRIER_SIGNATURE_HEADER]: carrierSignatureHeader(request.body, SANDBOX_KEYS.BRING_WEBHOOK_SECRET),
      },
      body: request.body,
    },
    200,
  );
}

const view = (w: World, sale: Sale) => api(w, "GET", `/api/payments/orders/${sale.orderId}`, sale.buyerId) as Promise<OrderView>;

/** Every sent toy's parcel booked, then moved to "Levert" at the sandbox carrier and its webhooks delivered. */
export async function sendParcels(w: World): Promise<{ trackingEvents: number }> {
  const started = performance.now();
  for (const sale of w.shipped) {
    for (;;) {
      const shipment = (await view(w, sale)).shipment;
      if (shipment?.state === "booked" && shipment.shipment_number) {
        sale.shipmentNumber = shipment.shipment_number;
        break;
      }
      if (shipment && shipment.state !== "booking") throw new Error(`parcel of ${sale.orderId}: ${shipment.state}`);
      if (performance.now() - started > 120_000) throw new Error(`parcel of ${sale.orderId} not booked after 2 minutes`);
      // The queue books within seconds; when it is slower the cron's booking step does the same call (same key).
      if (performance.now() - started > 20_000) await cronAt("shipments", new Date());
      await sleep(500);
    }
  }
  let trackingEvents = 0;
  for (const sale of w.shipped) {
    const res = await fetch(`${server.sandboxBase}/__sandbox/bring/parcels/${sale.shipmentNumber}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "delivered" }),
    });
    if (res.status !== 200) throw new Error(`advance ${sale.shipmentNumber}: ${res.status} ${await res.text()}`);
    const { deliveries } = (await res.json()) as { deliveries: { request: { url: string; body: string } }[] };
    for (const d of deliveries) {
      const answer = await deliverTracking(d.request);
      if (answer.outcome !== "acked") throw new Error(`tracking webhook for ${sale.shipmentNumber}: ${JSON.stringify(answer)}`);
      trackingEvents++;
    }
    const delivered = await view(w, sale);
    if (delivered.state !== "handed_over" || delivered.shipment?.state !== "delivered" || !delivered.release_due_at)
      throw new Error(`parcel ${sale.shipmentNumber} delivered, but the order is ${delivered.state} (${delivered.shipment?.state})`);
    sale.releaseDueAt = delivered.release_due_at;
  }
  return { trackingEvents };
}

/** Just past a sent order's 48 hours: the cron's moment that releases it. */
const pastDue = (sale: Sale) => new Date(Date.parse(sale.releaseDueAt!) + 1000);

/**
 * The stream's n-th release of a sent toy: the buyer's "Jeg har fått varen" for even n, the cron's
 * tick just past the order's 48 hours for odd n. Keyed by the order; retried after a lost answer.
 */
export function shippedRequest(w: World, n: number): { key: string; request: () => Promise<Answer> } | null {
  const sale = w.shipped[n];
  if (!sale) return null;
  if (n % 2 === 1) return { key: sale.orderId!, request: () => cronAt("orders", pastDue(sale)) };
  const path = `/api/payments/orders/${sale.orderId}/received`;
  return {
    key: sale.orderId!,
    request: async () => {
      const answer = await send(
        `${server.base}${path}`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: server.origin, Cookie: `lb_access=${w.tokens.get(sale.buyerId)}` },
          body: "{}",
        },
        200,
      );
      // Released already (by the cron's tick, or by the same press before a lost answer).
      if (answer.status === 409 && answer.reason?.includes("allerede utbetalt")) return { ...answer, outcome: "acked" };
      return answer;
    },
  };
}

/** After the stream: one tick past the last order's 48 hours releases what the stream did not reach; then each order is opened. */
export async function finishShipped(w: World): Promise<void> {
  const last = w.shipped.at(-1);
  if (!last) return;
  for (let attempt = 0; attempt < 5; attempt++) if ((await cronAt("orders", pastDue(last))).outcome === "acked") break;
  for (const sale of w.shipped) await view(w, sale).catch((error: unknown) => console.warn(String(error)));
}
