// The carriers' tracking webhooks (decisions 147, 154): Bring's Event Cast and Helthjem's tracking
// each post one event per request, signed over the raw body (carrier-signature.ts) with the
// carrier's own secret. Verified before anything is parsed, then applied once by its event id
// (shipments.ts applyTrackingEvent). The answer is 2xx only once the event is recorded, so the
// sender retries anything that failed on our side.
import { z } from "zod";
import type { Carrier } from "../../../domain/carriers";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { verifyCarrierSignature } from "../carriers/carrier-signature";
import { applyTrackingEvent, type TrackingEvent, type TrackingOutcome } from "./shipments";

/** The refusals a sender reads: not shown to a person, kept in Norwegian like every API error. */
export const TRACKING_WEBHOOK_REFUSALS = {
  signature: "Ugyldig eller utløpt signatur.",
  notAnEvent: "Forespørselen er ikke en sporingshendelse.",
} as const;

const date = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date");
const id = (max: number) => z.string().trim().min(1).max(max);

/** The fields of Event Cast's payload that move a parcel (the sandbox sends the rest too). */
const eventCastSchema = z.object({ eventId: id(200), consignmentNumber: id(100), status: id(100), dateIso: date });

/** The fields of Helthjem's event (named after its Tracking API's) that move a parcel. */
const helthjemEventSchema = z.object({
  eventId: id(200),
  shipmentNumber: id(100),
  eventType: z.object({ apiKey: id(100) }),
  eventTimeUtc: date,
});

/** Each carrier's webhook: its secret, and its body read as the event applyTrackingEvent takes. */
const CARRIER_WEBHOOKS: Record<
  Carrier,
  { secret: (env: Bindings) => string | undefined; event: (json: unknown) => Omit<TrackingEvent, "carrier"> | null }
> = {
  bring: {
    secret: (env) => env.BRING_WEBHOOK_SECRET,
    event: (json) => {
      const parsed = eventCastSchema.safeParse(json);
      if (!parsed.success) return null;
      const e = parsed.data;
      return { eventId: e.eventId, shipmentNumber: e.consignmentNumber, code: e.status, occurredAt: new Date(e.dateIso).toISOString() };
    },
  },
  helthjem: {
    secret: (env) => env.HELTHJEM_WEBHOOK_SECRET,
    event: (json) => {
      const parsed = helthjemEventSchema.safeParse(json);
      if (!parsed.success) return null;
      const e = parsed.data;
      return {
        eventId: e.eventId,
        shipmentNumber: e.shipmentNumber,
        code: e.eventType.apiKey,
        occurredAt: new Date(e.eventTimeUtc).toISOString(),
      };
    },
  },
};

export type TrackingWebhookResult = { received: true } & TrackingOutcome;

export async function handleTrackingWebhook(
  env: Bindings,
  carrier: Carrier,
  rawBody: string,
  signature: string | undefined,
  now: Date = new Date(),
): Promise<TrackingWebhookResult> {
  const webhook = CARRIER_WEBHOOKS[carrier];
  // Without a secret nothing can be verified: 503, so the sender keeps the event and retries.
  const secret = webhook.secret(env);
  if (!secret) throw new AppError("SERVICE_UNAVAILABLE");
  const verdict = await verifyCarrierSignature(rawBody, signature, [secret], now.getTime());
  if (verdict !== "ok") throw new AppError("UNAUTHENTICATED", TRACKING_WEBHOOK_REFUSALS.signature);

  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError("VALIDATION", TRACKING_WEBHOOK_REFUSALS.notAnEvent);
  }
  const event = webhook.event(json);
  if (!event) throw new AppError("VALIDATION", TRACKING_WEBHOOK_REFUSALS.notAnEvent);

  // An event for a parcel we do not know is acknowledged (recorded, nothing moved), not refused:
  // the carrier may send every parcel of the customer number or shop, also those booked outside
  // Lekebytte or before this database, and a refusal would only make it send it again and again.
  const outcome = await applyTrackingEvent(env, { carrier, ...event }, now);
  return { received: true, ...outcome };
}
