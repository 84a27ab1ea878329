import { app } from "./app";
import type { Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";
import { handleQueue } from "./queues/analytics";
import { handleSavedSearchQueue } from "./queues/saved-searches";
import { SAVED_SEARCH_QUEUE } from "./services/saved-search-alerts";

export { ConversationRoom } from "./durable-objects/conversation-room";
export { UserInbox } from "./durable-objects/user-inbox";

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
