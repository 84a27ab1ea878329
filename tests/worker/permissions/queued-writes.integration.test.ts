// The permission matrix (./run.ts; docs/security.md "How it is tested") for the routes whose successes
// start queue consumers (creating a listing, the analytics beacons). The consumers write D1 and R2 a
// few seconds later, so these rows have a file of their own: no other row's "nothing changed" window
// comes after them. Each row is asked as every role and must answer the expected status; a refusal
// must change nothing, and the API's refusals say why in Norwegian.
import { describe } from "vitest";
import { QUEUEING_ROWS } from "./rows/queueing";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(QUEUEING_ROWS);
});
