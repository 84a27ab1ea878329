// The permission matrix (./run.ts; docs/security.md "How it is tested") for the routes whose successes
// start queue consumers (creating a listing, the analytics beacons). The consumers write D1 and R2 a
// few seconds later, so these rows have a file of their own: no other row's "nothing changed" window
// comes after them. Each row is asked as every role and must answer the expected status; a refusal
// must change nothing, and the API's refusals say why in Norwegian.
import { afterAll, describe } from "vitest";
import { storedState, stateChanges } from "../support/state";
import { QUEUEING_ROWS } from "./rows/queueing";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(QUEUEING_ROWS);

  // The consumers these rows started finish here, not in the next file this process runs (another
  // matrix file would see their writes as a refusal that changed stored state).
  afterAll(async () => {
    let before = await storedState();
    for (let quietChecks = 0; quietChecks < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await storedState();
      quietChecks = stateChanges(before, now).length === 0 ? quietChecks + 1 : 0;
      before = now;
    }
  }, 60_000);
});
