// The permission matrix (./run.ts; docs/security.md "How it is tested") for checkout, held money, the
// photos of a problem report, Stripe accounts, the providers' webhooks and the payment cases staff
// decide. Each row is asked as every role and must answer the expected status; a refusal must change
// nothing, and the API's refusals say why in Norwegian.
import { describe } from "vitest";
import { PAYMENT_ROWS } from "./rows/payments";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(PAYMENT_ROWS);
});
