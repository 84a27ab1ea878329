// The permission matrix (./run.ts; docs/security.md "How it is tested") for the signed-in user's own
// account, favourites, listings and photos. Each row is asked as every role and must answer the
// expected status; a refusal must change nothing, and the API's refusals say why in Norwegian.
import { describe } from "vitest";
import { ACCOUNT_AND_LISTING_ROWS } from "./rows/account-and-listings";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(ACCOUNT_AND_LISTING_ROWS);
});
