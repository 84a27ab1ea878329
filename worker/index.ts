import { app } from "./app";
import type { Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";
import { handleQueue } from "./features/analytics/queue";
import { handleSavedSearchQueue } from "./features/saved-searches/queue";
import { SAVED_SEARCH_QUEUE } from "./features/saved-searches/alerts";

export { ConversationRoom } from "./features/chat/conversation-room";
export { UserInbox } from "./features/chat/user-inbox";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduled(env as Bindings));
  },
  async queue(batch, env, _ctx) {
    if (batch.queue === SAVED_SEARCH_QUEUE) return handleSavedSearchQueue(batch, env as Bindings);
    await handleQueue(batch, env as Bindings);
  },
} satisfies ExportedHandler<Env>;
