import { app } from "./app";
import { queueBaseName, type Bindings } from "./env";
import { runScheduled } from "./cron/scheduled";
import { handleQueue } from "./features/analytics/queue";
import { handleSavedSearchQueue } from "./features/saved-searches/queue";
import { SAVED_SEARCH_QUEUE } from "./features/saved-searches/alerts";
import { handleShipmentQueue, SHIPMENT_QUEUE } from "./features/shipping/booking-queue";
import { countD1Into, countD1InLocalMode } from "./db/usage";
import { measuresWorkerTime, WORKER_TIME_RESPONSE_HEADER, withWorkerTime } from "./lib/worker-time";
import { requestLine, traceOf } from "./lib/request-log";
import { reportSettingsAtStart } from "./start-report";

export { ConversationRoom } from "./features/chat/conversation-room";
export { UserInbox } from "./features/chat/user-inbox";

export default {
  // Each entry first reports, once per isolate, the settings the deployment lacks (start-report.ts).
  // Every request's D1 calls are counted for its log line, one JSON line per request
  // (lib/request-log.ts). Local mode also counts D1 calls for the load benchmark (db/usage.ts), and
  // times our Worker's own work when the benchmark asks (lib/worker-time.ts).
  fetch: async (request, env, ctx) => {
    reportSettingsAtStart(env as Bindings);
    const trace = traceOf(request);
    const counted = (bindings: Bindings) => countD1Into(trace.d1, countD1InLocalMode(bindings));
    // The counters go over the timed bindings: D1's client code then runs outside the timed transport.
    const measured = measuresWorkerTime(request, env);
    const response = measured
      ? await withWorkerTime(env as Bindings, (timed) => app.fetch(request, timed, ctx), counted)
      : await app.fetch(request, counted(env as Bindings), ctx);
    const cpuMs = measured ? Number(response.headers.get(WORKER_TIME_RESPONSE_HEADER)) : null;
    console.log(JSON.stringify(await requestLine(env as Bindings, request, response, trace, cpuMs)));
    return response;
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
    if (queue === SHIPMENT_QUEUE) return handleShipmentQueue(batch, bindings);
    await handleQueue(batch, bindings, queue);
  },
} satisfies ExportedHandler<Env>;
