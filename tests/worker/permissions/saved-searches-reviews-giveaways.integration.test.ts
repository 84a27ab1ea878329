// The permission matrix (./run.ts; docs/security.md "How it is tested") for saved searches, seller
// statistics, reviews of a deal, the public profile and the give-away queue. Each row is asked as
// every role and must answer the expected status; a refusal must change nothing, and the API's
// refusals say why in Norwegian.
import { describe } from "vitest";
import { SAVED_SEARCH_REVIEW_GIVEAWAY_ROWS } from "./rows/saved-searches-reviews-giveaways";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(SAVED_SEARCH_REVIEW_GIVEAWAY_ROWS);
});
