import { app } from "./app";
import { queueBaseName, type Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";
import { handleQueue } from "./features/analytics/queue";
import { handleSavedSearchQueue } from "./features/saved-searches/queue";
import { SAVED_SEARCH_QUEUE } from "./features/saved-searches/alerts";
import { countD1InLocalMode } from "./db/usage";
import { measuresWorkerTime, withWorkerTime } from "./lib/worker-time";
import { reportSettingsAtStart } from "./start-report";

export { ConversationRoom } from "./features/chat/conversation-room";
export { UserInbox } from "./features/chat/user-inbox";

export default {
  // Each entry first reports, once per isolate, the settings the deployment lacks (start-report.ts).
  // Local mode counts D1 calls for the load benchmark (db/usage.ts), and times our Worker's own work
  // when the benchmark asks (lib/worker-time.ts); elsewhere env is passed as it is.
  fetch: (request, env, ctx) => {
    reportSettingsAtStart(env as Bindings);
    // The counter goes over the timed bindings: D1's client code then runs outside the timed transport.
    if (measuresWorkerTime(request, env))
      return withWorkerTime(env as Bindings, (timed) => app.fetch(request, timed, ctx), countD1InLocalMode);
    return app.fetch(request, countD1InLocalMode(env as Bindings), ctx);
  },
  async scheduled(_controller, env, ctx) {
    reportSettingsAtStart(env as Bindings);
    ctx.waitUntil(runScheduled(countD1InLocalMode(env as Bindings)));
  },
  async queue(batch, env, _ctx) {
    reportSettingsAtStart(env as Bindings);
    const bindings = countD1InLocalMode(env as Bindings);
    const queue = queueBaseName(batch.queue, bindings);
    if (queue === SAVED_SEARCH_QUEUE) return handleSavedSearchQueue(batch, bindings);
    await handleQueue(batch, bindings, queue);
  },
} satisfies ExportedHandler<Env>;
