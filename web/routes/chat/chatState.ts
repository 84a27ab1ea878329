// The chat's message list as plain functions: one copy per message (by id and seq), ascending by
// seq, whatever order the HTTP page, the catch-up and the live frames arrive in.
import type { ChatMessage } from "../../../domain/chat";

export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[];
  const bySeq = new Map<number, ChatMessage>();
  for (const m of current) bySeq.set(m.seq, m);
  let changed = false;
  for (const m of incoming) {
    const have = bySeq.get(m.seq);
    // The same message again keeps the read state we already know.
    if (have && have.id === m.id && (have.read_at || !m.read_at)) continue;
    bySeq.set(m.seq, have && have.id === m.id ? { ...have, read_at: m.read_at } : m);
    changed = true;
  }
  if (!changed) return current as ChatMessage[];
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** `readerId` has read everything up to `upToSeq` that they did not send. */
export function applyRead(current: readonly ChatMessage[], readerId: string, upToSeq: number, readAt: string): ChatMessage[] {
  let changed = false;
  const next = current.map((m) => {
    if (m.read_at || m.sender_id === readerId || m.seq > upToSeq) return m;
    changed = true;
    return { ...m, read_at: readAt };
  });
  return changed ? next : (current as ChatMessage[]);
}

/** The user's own messages up to `upToSeq` are read by the other party (from the catch-up). */
export function applyOwnReadHorizon(current: readonly ChatMessage[], myId: string, upToSeq: number): ChatMessage[] {
  let changed = false;
  const next = current.map((m) => {
    if (m.read_at || m.sender_id !== myId || m.seq > upToSeq) return m;
    changed = true;
    return { ...m, read_at: m.created_at };
  });
  return changed ? next : (current as ChatMessage[]);
}

/** The highest seq of unread messages from others, or 0. */
export function unreadIncomingUpTo(messages: readonly ChatMessage[], myId: string): number {
  let max = 0;
  for (const m of messages) if (m.sender_id !== myId && !m.read_at && m.seq > max) max = m.seq;
  return max;
}

export function lastSeq(messages: readonly ChatMessage[]): number {
  return messages.length ? messages[messages.length - 1].seq : 0;
}

/** A moderator removed a message: its text becomes the removal notice (the live "message_removed" event). */
export function applyRemoved(current: readonly ChatMessage[], removed: { id: string; content: string }): ChatMessage[] {
  if (!current.some((m) => m.id === removed.id && m.content !== removed.content)) return current as ChatMessage[];
  return current.map((m) => (m.id === removed.id ? { ...m, content: removed.content } : m));
}
