// The CarrierPort for Bring (decisions 145, 147): the shared port over Bring's HTTP client
// (parcel-carrier.ts), and the parties of a parcel from the accounts.
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { BringClient, type Party, type RetryPolicy } from "./carrier-client";
import { bringConfig } from "./carrier-config";
import { ParcelCarrier, type PartiesSource } from "./parcel-carrier";

export type { Parties, PartiesSource } from "./parcel-carrier";

export class BringCarrier extends ParcelCarrier {
  constructor(client: BringClient, parties: PartiesSource) {
    super("bring", client, parties);
  }
}

/** The Bring carrier with the Worker's configuration, or null when Bring is not configured. */
export function bringCarrier(env: Bindings, parties: PartiesSource = profileParties(env.DB), retry?: RetryPolicy): BringCarrier | null {
  const config = bringConfig(env);
  return config ? new BringCarrier(new BringClient(config, retry), parties) : null;
}

interface PersonRow {
  name: string | null;
  postal_code: string | null;
  city: string | null;
  phone: string | null;
  email: string | null;
}

/**
 * The parties from the seller's and buyer's accounts: name, postal code and place, the phone Vipps
 * vouched for. The profile keeps no street address yet, and the carrier refuses a party without one
 * (decision 147), so until the profile has it `addressLine` is `streetAddress(userId)`'s answer and
 * a party without one is refused here, with the message that tells the seller what to fill in.
 */
export function profileParties(db: Db, streetAddress: (userId: string) => Promise<string | null> = async () => null): PartiesSource {
  const person = async (userId: string): Promise<Party | null> => {
    const row = await db
      .prepare(
        `SELECT p.display_name AS name, p.postal_code, pp.place_name AS city, u.phone, u.email
         FROM users u LEFT JOIN profiles p ON p.user_id = u.id LEFT JOIN postal_places pp ON pp.postal_code = p.postal_code
         WHERE u.id = ?1`,
      )
      .bind(userId)
      .first<PersonRow>();
    const addressLine = await streetAddress(userId);
    if (!row?.name || !row.postal_code || !row.city || !row.phone || !addressLine) return null;
    return {
      name: row.name,
      addressLine,
      postalCode: row.postal_code,
      city: row.city.toUpperCase(),
      phoneNumber: row.phone.startsWith("+") ? row.phone : `+${row.phone}`,
      email: row.email,
    };
  };
  return async (parcel) => {
    const ids = await db
      .prepare("SELECT p.seller_id, p.buyer_id FROM orders o JOIN payments p ON p.id = o.payment_id WHERE o.id = ?1")
      .bind(parcel.orderId)
      .first<{ seller_id: string; buyer_id: string }>();
    if (!ids) return { refused: "sender" };
    const sender = await person(ids.seller_id);
    if (!sender) return { refused: "sender" };
    const recipient = await person(ids.buyer_id);
    if (!recipient) return { refused: "recipient" };
    return { sender, recipient };
  };
}
