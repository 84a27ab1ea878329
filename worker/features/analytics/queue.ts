import { osloDay } from "../../../domain/format";
import type { Bindings } from "../../env";
import { consumeAnalyticsBatch, storeDeadLetters } from "./consumer";

/** Queue names in wrangler.toml ([[queues.consumers]]). */
export const ANALYTICS_QUEUE = "analytics";
export const ANALYTICS_DLQ = "analytics-dlq";

/**
 * The analytics queues' consumer. `queue` is the queue's name without its environment's suffix
 * (worker/index.ts; staging's queue is "analytics-staging").
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Bindings, queue = batch.queue): Promise<void> {
  if (queue === ANALYTICS_QUEUE) {
    const outcome = await consumeAnalyticsBatch(batch, env);
    // One line per batch: the consumer's batch sizes are visible in `wrangler tail` and the bench.
    console.log(
      `analytics batch: ${batch.messages.length} messages, ${outcome.processed} counted, ${outcome.duplicates} already counted, ${outcome.invalid} invalid`,
    );
    return;
  }
  if (queue === ANALYTICS_DLQ) {
    await storeDeadLetters(batch, env, osloDay(new Date()));
    return;
  }
  throw new Error(`No consumer for queue ${batch.queue}`);
}
