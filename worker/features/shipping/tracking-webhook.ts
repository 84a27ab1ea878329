// The carrier's tracking webhook (decision 147): Bring's Event Cast posts one event per request,
// signed by us over the raw body (carrier-signature.ts). Verified before anything is parsed, then
// applied once by its event id (shipments.ts applyTrackingEvent). The answer is 2xx only once the
// event is recorded, so the sender retries anything that failed on our side.
import { z } from "zod";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { verifyCarrierSignature } from "../carriers/carrier-signature";
import { applyTrackingEvent, type TrackingOutcome } from "./shipments";

/** The refusals a sender reads: not shown to a person, kept in Norwegian like every API error. */
export const TRACKING_WEBHOOK_REFUSALS = {
  signature: "Ugyldig eller utløpt signatur.",
  notAnEvent: "Forespørselen er ikke en sporingshendelse.",
} as const;

/** The fields of Event Cast's payload that move a parcel (the sandbox sends the rest too). */
const eventCastSchema = z.object({
  eventId: z.string().trim().min(1).max(200),
  consignmentNumber: z.string().trim().min(1).max(100),
  status: z.string().trim().min(1).max(100),
  dateIso: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date"),
});

export type TrackingWebhookResult = { received: true } & TrackingOutcome;

export async function handleBringWebhook(
  env: Bindings,
  rawBody: string,
  signature: string | undefined,
  now: Date = new Date(),
): Promise<TrackingWebhookResult> {
  // Without a secret nothing can be verified: 503, so the sender keeps the event and retries.
  const secret = env.BRING_WEBHOOK_SECRET;
  if (!secret) throw new AppError("SERVICE_UNAVAILABLE");
  const verdict = await verifyCarrierSignature(rawBody, signature, [secret], now.getTime());
  if (verdict !== "ok") throw new AppError("UNAUTHENTICATED", TRACKING_WEBHOOK_REFUSALS.signature);

  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError("VALIDATION", TRACKING_WEBHOOK_REFUSALS.notAnEvent);
  }
  const parsed = eventCastSchema.safeParse(json);
  if (!parsed.success) throw new AppError("VALIDATION", TRACKING_WEBHOOK_REFUSALS.notAnEvent);
  const event = parsed.data;

  // An event for a parcel we do not know is acknowledged (recorded, nothing moved), not refused:
  // Event Cast sends every parcel of the customer number, also those booked outside Lekebytte or
  // before this database, and a refusal would only make the carrier send it again and again.
  const outcome = await applyTrackingEvent(
    env,
    {
      carrier: "bring",
      eventId: event.eventId,
      shipmentNumber: event.consignmentNumber,
      code: event.status,
      occurredAt: new Date(event.dateIso).toISOString(),
    },
    now,
  );
  return { received: true, ...outcome };
}
