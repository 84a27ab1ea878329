// Row types come from the schema (worker/db/rows.ts RowOf): a query's row is a Pick of its table's
// row, so a column the schema does not have, or a value of the wrong type, fails the typecheck.
import { describe, expectTypeOf, it } from "vitest";
import type { RowOf } from "../../worker/db/rows";
import type { orders, payments } from "../../worker/features/payments/schema";
import type { reviews } from "../../worker/features/reviews/schema";

describe("RowOf", () => {
  it("names a table's columns as D1 returns them, with the schema's types", () => {
    expectTypeOf<RowOf<typeof orders>>().toHaveProperty("payment_id").toEqualTypeOf<string>();
    expectTypeOf<RowOf<typeof orders>["state"]>().toEqualTypeOf<
      "held" | "handed_over" | "problem" | "released" | "refunded" | "partially_refunded" | "cancelled"
    >();
    expectTypeOf<RowOf<typeof payments>["provider_ref"]>().toEqualTypeOf<string | null>();
    // A boolean column comes back from D1 as 0 or 1.
    expectTypeOf<RowOf<typeof reviews>["is_hidden"]>().toEqualTypeOf<number>();
    // @ts-expect-error: orders has no column listing_id (an order's listing is its payment's).
    expectTypeOf<RowOf<typeof orders>>().toHaveProperty("listing_id");
  });
});
