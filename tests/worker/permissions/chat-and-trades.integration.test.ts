// The permission matrix (./run.ts; docs/security.md "How it is tested") for conversations, the live
// sockets, test notifications and trades. Each row is asked as every role and must answer the expected
// status; a refusal must change nothing, and the API's refusals say why in Norwegian.
import { describe } from "vitest";
import { CHAT_AND_TRADE_ROWS } from "./rows/chat-and-trades";
import { walkRows } from "./run";

describe("permission matrix", () => {
  walkRows(CHAT_AND_TRADE_ROWS);
});
