import { app } from "./app";
import type { Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";

export { ConversationRoom } from "./durable-objects/conversation-room";
export { UserInbox } from "./durable-objects/user-inbox";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduled(env as Bindings));
  },
} satisfies ExportedHandler<Env>;
