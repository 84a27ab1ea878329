import { osloDay } from "../../../domain/format";
import type { Bindings } from "../../env";
import { consumeAnalyticsBatch, storeDeadLetters } from "./consumer";

/** Queue names in wrangler.toml ([[queues.consumers]]). */
export const ANALYTICS_QUEUE = "analytics";
export const ANALYTICS_DLQ = "analytics-dlq";

/** The Worker's `queue` handler: one consumer per queue. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  if (batch.queue === ANALYTICS_QUEUE) {
    const outcome = await consumeAnalyticsBatch(batch, env);
    // One line per batch: the consumer's batch sizes are visible in `wrangler tail` and the bench.
    console.log(
      `analytics batch: ${batch.messages.length} messages, ${outcome.processed} counted, ${outcome.duplicates} already counted, ${outcome.invalid} invalid`,
    );
    return;
  }
  if (batch.queue === ANALYTICS_DLQ) {
    await storeDeadLetters(batch, env, osloDay(new Date()));
    return;
  }
  throw new Error(`No consumer for queue ${batch.queue}`);
}
