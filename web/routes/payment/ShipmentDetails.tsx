// A sent order's parcel as its buyer or seller reads it (decision 145), on the chat's order card and
// /betaling-fullfort: where it is, how it goes, what the toy and the shipping cost, and what this
// party does now: the seller's drop-off code and deadline, the buyer's shipment number, or "Prøv
// igjen" after the carrier refused the booking.
import { useMutation } from "@tanstack/react-query";
import { Package } from "lucide-react";
import { CARRIER_LABELS, DELIVERY_METHOD_LABELS, HAND_IN_PLACES } from "../../../domain/carriers";
import { formatDate, formatMinorUnits } from "../../../domain/format";
import { SHIPMENT_STATE_LABELS, SHIPMENT_TEXTS } from "../../../domain/shipping";
import { isApiError } from "../../api/client";
import { retryShipment, type OrderView } from "../../api/payments";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";

type Shipment = NonNullable<OrderView["shipment"]>;

export interface ShipmentDetailsProps {
  order: Pick<OrderView, "order_id" | "role"> & { shipment: Shipment };
  /** The order after "Prøv igjen", for the page to show. */
  onRetried: (order: OrderView) => void;
  className?: string;
}

/** "Sendekode: " before the code, from the product's text, so the code itself can be set apart. */
const CODE_LABEL = SHIPMENT_TEXTS.dropOffCode("").trim();

export function ShipmentDetails({ order, onRetried, className }: ShipmentDetailsProps) {
  const { shipment } = order;
  const seller = order.role === "seller";
  const retry = useMutation({
    mutationFn: () => retryShipment(order.order_id),
    onSuccess: onRetried,
    onError: (error) => {
      const reason = isApiError(error) && error.status !== 500 && error.code !== "NETWORK" ? error.message : "Prøv igjen.";
      toastError("Feil", reason, { error });
    },
  });
  const point = shipment.pickup_point;

  return (
    <section aria-label="Frakt" className={cn("space-y-2 text-sm text-stone-800", className)}>
      <p className="flex items-center gap-1.5 font-semibold text-stone-900">
        <Package aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
        {SHIPMENT_STATE_LABELS[shipment.state]}
      </p>
      <p>
        {CARRIER_LABELS[shipment.carrier]} · {DELIVERY_METHOD_LABELS[shipment.delivery]}
        {point ? (
          <span className="block text-stone-700">
            {point.name}, {point.address}
          </span>
        ) : null}
      </p>

      {shipment.state === "booked" && seller && shipment.drop_off_code ? (
        <div className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-stone-900">
          <p className="text-base">
            {CODE_LABEL}{" "}
            <strong className="font-mono text-xl font-extrabold tracking-wide break-all select-all">{shipment.drop_off_code}</strong>
          </p>
          <p className="mt-1 font-semibold">{SHIPMENT_TEXTS.dropOffBy(formatDate(shipment.drop_off_deadline))}</p>
          <p className="mt-1">{HAND_IN_PLACES[shipment.carrier]}</p>
        </div>
      ) : null}

      {!seller && shipment.shipment_number ? (
        <p>
          Sporingsnummer: <span className="font-mono select-all">{shipment.shipment_number}</span>
        </p>
      ) : null}

      {shipment.state === "booking_failed" ? (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-stone-900">
          {/* The carrier's refusal in the seller's words says what to fix; the buyer is told the money is held. */}
          <p className={seller ? "font-semibold" : undefined}>
            {seller ? (shipment.booking_error ?? SHIPMENT_TEXTS.bookingFailedSeller) : SHIPMENT_TEXTS.bookingFailedBuyer}
          </p>
          {shipment.can_retry ? (
            <Button
              size="sm"
              className="mt-2"
              onClick={() => retry.mutate()}
              disabled={retry.isPending}
              aria-busy={retry.isPending || undefined}
            >
              {SHIPMENT_TEXTS.retryBooking}
            </Button>
          ) : null}
        </div>
      ) : null}

      <dl className="grid grid-cols-[auto_1fr] gap-x-4">
        <dt>Leken</dt>
        <dd className="text-right">{formatMinorUnits(shipment.toy_price)}</dd>
        <dt>Frakt</dt>
        <dd className="text-right">{formatMinorUnits(shipment.shipping_price)}</dd>
      </dl>
    </section>
  );
}
