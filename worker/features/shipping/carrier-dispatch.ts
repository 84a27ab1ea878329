// One CarrierPort for every configured carrier (decision 154): a parcel is booked and cancelled by
// its own carrier's port, Bring's or Helthjem's. A carrier without configuration (or with an
// unusable setting, which the start report names) is left out: its parcels wait, as every parcel
// does while no carrier is configured.
import { CARRIERS, type Carrier } from "../../../domain/carriers";
import type { Bindings } from "../../env";
import { bringCarrier } from "./bring-carrier";
import type { BookingResult, CancelResult, CarrierPort, ParcelBooking } from "./carrier-port";
import { helthjemCarrier } from "./helthjem-carrier";

export class CarrierDispatch implements CarrierPort {
  readonly carriers: readonly Carrier[];

  constructor(private readonly ports: Partial<Record<Carrier, CarrierPort>>) {
    this.carriers = CARRIERS.filter((c) => ports[c]);
  }

  book(parcel: ParcelBooking, idempotencyKey: string): Promise<BookingResult> {
    const port = this.ports[parcel.carrier];
    if (!port) return Promise.resolve({ kind: "unavailable", message: `${parcel.carrier} is not configured` });
    return port.book(parcel, idempotencyKey);
  }

  cancel(carrier: Carrier, shipmentNumber: string, idempotencyKey: string): Promise<CancelResult> {
    const port = this.ports[carrier];
    if (!port) return Promise.resolve({ kind: "unavailable", message: `${carrier} is not configured` });
    return port.cancel(carrier, shipmentNumber, idempotencyKey);
  }
}

const FACTORIES: Record<Carrier, (env: Bindings) => CarrierPort | null> = { bring: bringCarrier, helthjem: helthjemCarrier };

/** The port for every carrier configured and usable here, or null when there is none. */
export function carrierPort(env: Bindings): CarrierDispatch | null {
  const ports: Partial<Record<Carrier, CarrierPort>> = {};
  for (const carrier of CARRIERS) {
    try {
      const port = FACTORIES[carrier](env);
      if (port) ports[carrier] = port;
    } catch {
      // An unusable setting (a base URL that is not https, a shop id that is not a number): the start
      // report names it, and this carrier's parcels wait; the others' go on.
    }
  }
  return Object.keys(ports).length > 0 ? new CarrierDispatch(ports) : null;
}
