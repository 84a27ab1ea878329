// The CarrierPort for Helthjem (decision 154): the shared port over Helthjem's HTTP client
// (parcel-carrier.ts), with the parties from the accounts as Bring's (bring-carrier.ts profileParties).
import type { Bindings } from "../../env";
import type { RetryPolicy } from "../carriers/carrier-client";
import { helthjemConfig } from "../carriers/carrier-config";
import { profileParties } from "./bring-carrier";
import { HelthjemClient } from "../carriers/helthjem-client";
import { ParcelCarrier, type PartiesSource } from "./parcel-carrier";

export class HelthjemCarrier extends ParcelCarrier {
  constructor(client: HelthjemClient, parties: PartiesSource) {
    super("helthjem", client, parties);
  }
}

/** The Helthjem carrier with the Worker's configuration, or null when Helthjem is not configured. */
export function helthjemCarrier(
  env: Bindings,
  parties: PartiesSource = profileParties(env.DB),
  retry?: RetryPolicy,
): HelthjemCarrier | null {
  const config = helthjemConfig(env);
  return config ? new HelthjemCarrier(new HelthjemClient(config, retry), parties) : null;
}
