// What the seller reads when the carrier refuses a request (4xx), by what was wrong: what to do,
// never the carrier's code. The codes are the sandbox's: Bring's in its BOOK-… style (decision 147),
// Helthjem's as its `errorKey`s (decision 154); each carrier's own list is mapped here when its
// agreement gives access to it. An unknown code is our request's fault: the seller is told that we fix it.
import { CARRIER_LABELS, type Carrier, SHIPPING_CHOICE_REFUSALS } from "../../../domain/carriers";
import { SHIPMENT_TEXTS } from "../../../domain/shipping";

export type RefusalField = "sender" | "recipient" | "pickup_point" | "postal_code" | "offer" | "handed_in" | "request";

/** The seller's messages for a carrier's refusals: the buyer's address names the carrier that refused it. */
export function carrierRefusals(carrier: Carrier): Record<RefusalField, string> {
  return {
    sender: SHIPMENT_TEXTS.bookingFailedSeller,
    recipient: `${CARRIER_LABELS[carrier]} godtok ikke kjøperens adresse eller telefonnummer. Be kjøperen om riktig adresse i chatten, og trykk «Prøv igjen» når den er rettet.`,
    pickup_point: "Hentestedet kjøperen valgte, tar ikke imot pakken. Be kjøperen velge et annet hentested, og trykk «Prøv igjen».",
    postal_code: "Skriv et postnummer med fire sifre.",
    offer: SHIPPING_CHOICE_REFUSALS.notOffered,
    handed_in: "Pakken er allerede levert inn og kan ikke avbestilles.",
    request:
      "Vi fikk ikke bestilt frakten på grunn av en feil hos oss. Pengene holdes trygt, og vi retter feilen. Du trenger ikke gjøre noe nå.",
  };
}

/** Bring's (Posten's) messages. */
export const CARRIER_REFUSALS = carrierRefusals("bring");

const FIELD_BY_CODE: Record<string, RefusalField> = {
  "BOOK-INPUT-005": "sender",
  "BOOK-INPUT-006": "recipient",
  "BOOK-INPUT-007": "recipient",
  "BOOK-INPUT-008": "pickup_point",
  "BOOK-CANCEL-002": "handed_in",
  "PICKUP-INPUT-002": "postal_code",
  // Helthjem's errorKeys (the sandbox's; no.carrier.support is Helthjem's own for an address it does not reach).
  "invalid.consignor": "sender",
  "invalid.consignee": "recipient",
  "invalid.consignee.phone": "recipient",
  "no.carrier.support": "recipient",
  "invalid.service.point": "pickup_point",
  "item.exceeds.limits": "offer",
  "shipment.already.handed.in": "handed_in",
  "invalid.zip.code": "postal_code",
  "LOCAL-POSTAL-CODE": "postal_code",
  "LOCAL-NO-LOCKER": "pickup_point",
  "LOCAL-NOT-OFFERED": "offer",
};

/** The field at fault and the seller's message for a refusal with this code. */
export function carrierRefusal(code: string, field?: RefusalField, carrier: Carrier = "bring"): { field: RefusalField; message: string } {
  const f = field ?? FIELD_BY_CODE[code] ?? "request";
  return { field: f, message: carrierRefusals(carrier)[f] };
}
