// The whole route table of the permission matrix: every group in this folder (each walked by its own
// test file), for the check that every route has a row (coverage.integration.test.ts).
import type { Row } from "../matrix";
import { ACCOUNT_AND_LISTING_ROWS } from "./account-and-listings";
import { CHAT_AND_TRADE_ROWS } from "./chat-and-trades";
import { MODERATION_ROWS } from "./moderation";
import { FILE_ROWS, PAGE_ROWS } from "./pages-and-files";
import { PAYMENT_ROWS } from "./payments";
import { PUBLIC_AND_AUTH_ROWS } from "./public-and-auth";
import { QUEUEING_ROWS } from "./queueing";
import { SAVED_SEARCH_REVIEW_GIVEAWAY_ROWS } from "./saved-searches-reviews-giveaways";

export const ROWS: Row[] = [
  ...PUBLIC_AND_AUTH_ROWS,
  ...ACCOUNT_AND_LISTING_ROWS,
  ...CHAT_AND_TRADE_ROWS,
  ...PAYMENT_ROWS,
  ...MODERATION_ROWS,
  ...SAVED_SEARCH_REVIEW_GIVEAWAY_ROWS,
  ...FILE_ROWS,
  ...PAGE_ROWS,
  ...QUEUEING_ROWS,
];
