// The permission matrix (./run.ts; docs/security.md "How it is tested") for reports and the moderation
// dashboard (staff who may not act: staff-rules.integration.test.ts). Each row is asked as every role
// and must answer the expected status; a refusal must change nothing, and the API's refusals say why
// in Norwegian.
import { describe } from "vitest";
import { MODERATION_ROWS } from "./rows/moderation";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(MODERATION_ROWS);
});
