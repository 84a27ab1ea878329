import { app } from "./app";
import type { Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";
import { handleQueue } from "./features/analytics/queue";
import { handleSavedSearchQueue } from "./features/saved-searches/queue";
import { SAVED_SEARCH_QUEUE } from "./features/saved-searches/alerts";
import { countD1InLocalMode } from "./db/usage";

export { ConversationRoom } from "./features/chat/conversation-room";
export { UserInbox } from "./features/chat/user-inbox";

export default {
  // Local mode counts D1 calls for the load benchmark (db/usage.ts); elsewhere env is passed as it is.
  fetch: (request, env, ctx) => app.fetch(request, countD1InLocalMode(env as Bindings), ctx),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduled(countD1InLocalMode(env as Bindings)));
  },
  async queue(batch, env, _ctx) {
    const bindings = countD1InLocalMode(env as Bindings);
    if (batch.queue === SAVED_SEARCH_QUEUE) return handleSavedSearchQueue(batch, bindings);
    await handleQueue(batch, bindings);
  },
} satisfies ExportedHandler<Env>;
