// Who is away from a conversation, for the offline e-mail (docs/decisions/030-offline-mail.md). The
// ConversationRoom keeps one Presence per participant in its synchronous KV storage and its alarm
// mails those still away when their time is due; the rules of that timing live here.
import { OFFLINE_MAIL_AFTER_MS, OFFLINE_MAIL_INTERVAL_MS } from "../../../domain/messaging";

/** Per participant. */
export interface Presence {
  /** Last time they were seen here (socket closed, or an HTTP send); absent when never. */
  lastSeen?: number;
  lastMailed?: number;
  /** Unread messages arrived while they were away: the alarm decides whether to mail. */
  pending?: boolean;
}

/** 15 minutes after they were last here, and an hour after the last mail about this conversation. */
export function mailDueAt(p: Presence): number {
  return Math.max((p.lastSeen ?? 0) + OFFLINE_MAIL_AFTER_MS, (p.lastMailed ?? 0) + OFFLINE_MAIL_INTERVAL_MS);
}

/**
 * A message arrived: each recipient who is `away` gets a pending mail check (unless one is already
 * pending), and a sender present over HTTP (not on a socket) is seen now. Updates `presence` in
 * place; returns whether it changed and when the earliest new check is due.
 */
export function noteMessage(
  presence: Record<string, Presence>,
  away: readonly string[],
  seenSenderId: string | null,
  now: number,
): { changed: boolean; due: number | undefined } {
  let due: number | undefined;
  let changed = false;
  if (seenSenderId) {
    presence[seenSenderId] = { ...presence[seenSenderId], lastSeen: now };
    changed = true;
  }
  for (const id of away) {
    const p = presence[id] ?? {};
    if (p.pending) continue;
    presence[id] = { ...p, pending: true };
    changed = true;
    const at = mailDueAt(presence[id]);
    due = due === undefined ? at : Math.min(due, at);
  }
  return { changed, due };
}
