// The words the demo data is written in: the demo accounts' keys, minutes as the unit of "how long
// ago", and the shapes of a demo listing and a demo message.
import type { AgeRange, CategoryKey, ListingStatus } from "../../domain/taxonomy";
import type { ParcelSize } from "../../domain/carriers";
import type { Motif } from "./images";

export type AccountKey = "kari" | "ola" | "ingrid" | "lars" | "sofie" | "emil" | "nora" | "marte" | "anders";

export const MIN = 1;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export interface DemoListing {
  ref: string;
  owner: AccountKey;
  title: string;
  description: string;
  category: CategoryKey;
  age: AgeRange;
  condition: 1 | 2 | 3 | 4 | 5;
  /** Whole NOK; null = free. */
  price: number | null;
  trade: boolean;
  postalCode: string;
  /** How long ago it was posted, in minutes. */
  ago: number;
  status?: ListingStatus;
  hidden?: { reason: string; ago: number };
  image: { motif: Motif; color: string; count: 1 | 2 | 3 };
  /** "Kan sendes" in a parcel of this size, besides "Hentes"; without it the toy is picked up only. */
  ship?: ParcelSize;
}

export interface DemoMessage {
  /** "system": a notice from Lekebytte, as the Worker posts on every change of a trade (decision 047). */
  from: AccountKey | "system";
  text: string;
  ago: number;
  read: boolean;
}

/** Minutes → milliseconds. */
export const minutes = (m: number): number => m * 60_000;
