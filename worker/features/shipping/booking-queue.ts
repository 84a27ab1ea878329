// The shipment-booking queue's consumer (decision 150): a paid order's parcel is booked with its
// carrier as soon as the payment is settled, not at the next hourly cron. A carrier that does not
// answer is asked again, with the same key, when the message comes back; the cron books whatever is
// still waiting after the queue's retries.
import type { Carrier } from "../../../domain/carriers";
import type { ShipmentBookingMessage } from "../../../domain/shipping";
import type { Bindings } from "../../env";
import { carrierPort } from "./carrier-dispatch";
import type { CarrierPort } from "./carrier-port";
import { bookShipment } from "./shipments";

export const SHIPMENT_QUEUE = "shipment-booking";

/**
 * The port the Worker books and cancels with: each parcel's own carrier, Bring or Helthjem
 * (carrier-dispatch.ts); null when no carrier is configured and usable. A carrier left out this way
 * has its parcels wait: the port answers unavailable for them, and the cron does not ask it.
 */
export function carrierPortFor(env: Bindings): CarrierPort | null {
  return carrierPort(env);
}

function orderIdOf(body: unknown): string | null {
  const id = (body as Partial<ShipmentBookingMessage> | null)?.order_id;
  return typeof id === "string" && id.length > 0 ? id : null;
}

/** Seconds before a booking the carrier did not answer is tried again: 30 s doubling, at most 10 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(600, 30 * 2 ** Math.max(0, attempts - 1));
}

export async function handleShipmentQueue(batch: MessageBatch<unknown>, env: Bindings, port = carrierPortFor(env)): Promise<void> {
  for (const message of batch.messages) {
    const orderId = orderIdOf(message.body);
    // Nothing to book with (no carrier configured), or not a booking: the cron books once it can.
    if (!orderId || !port) {
      message.ack();
      continue;
    }
    const shipment = await env.DB.prepare("SELECT id, carrier FROM shipments WHERE order_id = ?1 AND state = 'booking'")
      .bind(orderId)
      .first<{ id: string; carrier: Carrier }>();
    // A parcel whose carrier is not configured here waits for the cron, like every parcel without one.
    if (!shipment || (port.carriers && !port.carriers.includes(shipment.carrier))) {
      message.ack();
      continue;
    }
    try {
      const after = await bookShipment(env, shipment.id, port);
      if (after.state === "booking") message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      else message.ack();
    } catch (error) {
      console.warn("Booking not made yet; the queue retries", orderId, error instanceof Error ? error.message : error);
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}
