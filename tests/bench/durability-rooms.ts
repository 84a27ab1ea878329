// The durability bench's chat rooms beside their D1 mirror: what D1 lacks, when it caught up, each
// room's history as the room serves it.
import { DatabaseSync } from "node:sqlite";
import type { MessagePage } from "../../domain/chat";
import { writes } from "./durability-stream";
import { STATE, type World, server } from "./durability-world";
import { d1File, sleep } from "./support";

/** Acknowledged message ids the D1 file does not have (read while the server runs or is down). */
export function ackedNotInD1(): string[] {
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  try {
    const inD1 = new Set((db.prepare("SELECT id FROM messages").all() as { id: string }[]).map((r) => r.id));
    return writes.filter((w) => w.kind === "message" && w.outcome === "acked" && !inD1.has(w.key)).map((w) => w.key);
  } finally {
    db.close();
  }
}

/** Seconds until D1 has every acknowledged message (the rooms' alarms mirror them), or null after `limit` s. */
export async function mirrorCaughtUp(limit: number): Promise<number | null> {
  const started = performance.now();
  while ((performance.now() - started) / 1000 < limit) {
    if (ackedNotInD1().length === 0) return (performance.now() - started) / 1000;
    await sleep(500);
  }
  return null;
}

/** Every bench conversation's history as its room serves it (GET …/messages, page by page), as the buyer. */
export async function readRoomHistories(world: World): Promise<Map<string, string[]>> {
  const histories = new Map<string, string[]>();
  for (const c of world.conversations) {
    const ids: string[] = [];
    let before: number | undefined;
    for (;;) {
      const query = before === undefined ? "" : `?before=${before}`;
      const res = await fetch(`${server.base}/api/conversations/${c.id}/messages${query}`, {
        headers: { Origin: server.origin, Cookie: `lb_access=${world.tokens.get(c.buyerId)}` },
        signal: AbortSignal.timeout(60_000),
      });
      if (res.status !== 200) throw new Error(`history of ${c.id}: ${res.status} ${await res.text()}`);
      const page = (await res.json()) as MessagePage;
      ids.unshift(...page.messages.map((m) => m.id));
      if (!page.has_more || page.messages.length === 0) break;
      before = page.messages[0].seq;
    }
    histories.set(c.id, ids);
  }
  return histories;
}
