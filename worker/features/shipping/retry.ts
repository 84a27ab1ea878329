// "Prøv igjen" on a parcel the carrier refused to book (decision 145): the seller has fixed the
// address, or the buyer asks again; the booking is made at once with a key of its own.
import type { Carrier } from "../../../domain/carriers";
import type { OrderView } from "../../../domain/order-views";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Actor, Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../lib/rate-limit";
import { notFound, orderForViewer, roleOf } from "../payments/order-views";
import { orderRow } from "../payments/order-rows";
import { carrierPortFor } from "./booking-queue";
import { retryBooking } from "./shipments";

export const RETRY_TEXTS = {
  notShipped: "Dette kjøpet sendes ikke med posten.", // 409
  noCarrier: "Frakten kan ikke bestilles akkurat nå. Prøv igjen senere.", // 503
} as const;

export async function retryShipment(env: Bindings, actor: Actor, orderId: string): Promise<OrderView> {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  const role = row ? roleOf(row, actor) : null;
  if (!row || (role !== "buyer" && role !== "seller")) throw notFound();
  const shipment = await db
    .prepare("SELECT id, carrier FROM shipments WHERE order_id = ?1")
    .bind(row.id)
    .first<{ id: string; carrier: Carrier }>();
  if (!shipment) throw new AppError("CONFLICT", RETRY_TEXTS.notShipped);
  await enforceRateLimit(db, RATE_RULES.shipmentRetry, actor.id);
  const port = carrierPortFor(env);
  // No carrier here, or not this parcel's (Helthjem without its keys): nothing can book it now.
  if (!port || (port.carriers && !port.carriers.includes(shipment.carrier)))
    throw new AppError("SERVICE_UNAVAILABLE", RETRY_TEXTS.noCarrier);
  await retryBooking(env, shipment.id, role, port);
  return orderForViewer(env, actor, row.id);
}
