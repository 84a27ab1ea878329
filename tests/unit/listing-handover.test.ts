// How a toy changes hands on the listing form (domain/schemas/listing.ts with domain/carriers.ts's
// rule, decision 148): every combination of ways and size against a table written out by hand.
import { describe, expect, it } from "vitest";
import { handoverModes, SHIPPING_CHOICE_REFUSALS as R } from "../../domain/carriers";
import { listingFormSchema } from "../../domain/schemas/listing";

const valid = {
  title: "Monopol Junior",
  category: "spill",
  age_range: "6-8 år",
  condition_rating: 4,
  price: 120,
  postal_code: "0150",
  images: ["u1/a.jpg"],
};

type Outcome = { handover: string[]; parcel_size: string | null } | { field: string; message: string };

/** Input (handover, parcel_size; undefined = not sent) → what the form stores, or the refusal at its field. */
const CASES: [unknown, unknown, Outcome][] = [
  [undefined, undefined, { handover: ["in_person"], parcel_size: null }],
  [["in_person"], undefined, { handover: ["in_person"], parcel_size: null }],
  [["in_person"], null, { handover: ["in_person"], parcel_size: null }],
  // A size without "Kan sendes" is dropped, never stored.
  [["in_person"], "medium", { handover: ["in_person"], parcel_size: null }],
  [["shipping"], "small", { handover: ["shipping"], parcel_size: "small" }],
  [["shipping"], "large", { handover: ["shipping"], parcel_size: "large" }],
  // Stored in HANDOVER_MODES' order, each once.
  [["shipping", "in_person"], "medium", { handover: ["in_person", "shipping"], parcel_size: "medium" }],
  [["shipping", "shipping", "in_person"], "medium", { handover: ["in_person", "shipping"], parcel_size: "medium" }],
  [[], undefined, { field: "handover", message: R.noHandover }],
  [[], "small", { field: "handover", message: R.noHandover }],
  [["shipping"], undefined, { field: "parcel_size", message: R.noSize }],
  [["shipping"], null, { field: "parcel_size", message: R.noSize }],
  [["in_person", "shipping"], undefined, { field: "parcel_size", message: R.noSize }],
  [["shipping"], "huge", { field: "parcel_size", message: R.noSize }],
  [["shipping"], "", { field: "parcel_size", message: R.noSize }],
  [["by_drone"], undefined, { field: "handover.0", message: R.noHandover }],
  ["shipping", "small", { field: "handover", message: R.noHandover }],
  [null, undefined, { field: "handover", message: R.noHandover }],
];

describe("the listing form's handover", () => {
  it.each(CASES)("handover %j, parcel_size %j → %j", (handover, parcelSize, outcome) => {
    const input: Record<string, unknown> = { ...valid };
    if (handover !== undefined) input.handover = handover;
    if (parcelSize !== undefined) input.parcel_size = parcelSize;
    const result = listingFormSchema.safeParse(input);
    if ("field" in outcome) {
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([[outcome.field, outcome.message]]);
    } else {
      expect(result.success).toBe(true);
      expect(result.data).toMatchObject(outcome);
    }
  });

  it("reports a refused price and a refused handover together", () => {
    const result = listingFormSchema.safeParse({ ...valid, price: "12,5", handover: [] });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["price", "handover"]);
  });

  it("reads the stored yes/no columns in HANDOVER_MODES' order", () => {
    expect(handoverModes(true, false)).toEqual(["in_person"]);
    expect(handoverModes(false, true)).toEqual(["shipping"]);
    expect(handoverModes(true, true)).toEqual(["in_person", "shipping"]);
    expect(handoverModes(false, false)).toEqual([]);
  });
});
