// Who is away from a conversation, for the offline e-mail (docs/decisions/030-offline-mail.md). The
// ConversationRoom keeps one Presence per participant in its synchronous KV storage and its alarm
// mails those still away when their time is due; the rules of that timing live here.
import { OFFLINE_MAIL_AFTER_MS, OFFLINE_MAIL_INTERVAL_MS, SYSTEM_USER_ID } from "../../../domain/chat";

/** Per participant. */
export interface Presence {
  /** Last time they were seen here (socket closed, or an HTTP send); absent when never. */
  lastSeen?: number;
  lastMailed?: number;
  /** Unread messages arrived while they were away: the alarm decides whether to mail. */
  pending?: boolean;
  /**
   * A system message (a notice of a sale, a reservation, a trade, a review) arrived: no mail about
   * unread messages before this. The event has its own notice (an e-mail of its own, the give-away
   * notice in the app, the live badge), which goes first; the mail follows only if the notice is
   * still unread 15 minutes later, never in the same second (decision 117).
   */
  quietUntil?: number;
}

/**
 * 15 minutes after they were last here, an hour after the last mail about this conversation, and
 * not while a system message's notice has the floor.
 */
export function mailDueAt(p: Presence): number {
  return Math.max((p.lastSeen ?? 0) + OFFLINE_MAIL_AFTER_MS, (p.lastMailed ?? 0) + OFFLINE_MAIL_INTERVAL_MS, p.quietUntil ?? 0);
}

/**
 * A message arrived: each recipient who is `away` gets a pending mail check (unless one is already
 * pending), and a sender present over HTTP (not on a socket) is seen now. A system message (`notice`)
 * holds every away recipient's mail back for 15 minutes, a check already pending too. Updates
 * `presence` in place; returns whether it changed and when the earliest new check is due.
 */
export function noteMessage(
  presence: Record<string, Presence>,
  away: readonly string[],
  seenSenderId: string | null,
  now: number,
  notice = false,
): { changed: boolean; due: number | undefined } {
  let due: number | undefined;
  let changed = false;
  if (seenSenderId) {
    presence[seenSenderId] = { ...presence[seenSenderId], lastSeen: now };
    changed = true;
  }
  for (const id of away) {
    const p = notice ? { ...presence[id], quietUntil: now + OFFLINE_MAIL_AFTER_MS } : (presence[id] ?? {});
    if (notice) {
      presence[id] = p;
      changed = true;
    }
    if (p.pending) continue;
    presence[id] = { ...p, pending: true };
    changed = true;
    const at = mailDueAt(presence[id]);
    due = due === undefined ? at : Math.min(due, at);
  }
  return { changed, due };
}

/**
 * The alarm's mail round: each participant with a pending check who is still away and due is mailed
 * (`mail` says whether there was unread mail to send); one who is here again needs no check (leaving
 * sets one again). Updates `presence` in place; returns when the earliest check not yet due is.
 */
export async function mailWhoIsAway(
  presence: Record<string, Presence>,
  now: number,
  isOnline: (userId: string) => boolean,
  mail: (userId: string) => Promise<boolean>,
): Promise<number | undefined> {
  let next: number | undefined;
  for (const [userId, p] of Object.entries(presence)) {
    if (!p.pending) continue;
    if (isOnline(userId)) {
      presence[userId] = { ...p, pending: false };
      continue;
    }
    const due = mailDueAt(p);
    if (due > now) {
      next = next === undefined ? due : Math.min(next, due);
      continue;
    }
    const mailed = await mail(userId);
    presence[userId] = { ...p, pending: false, ...(mailed ? { lastMailed: now } : {}) };
  }
  return next;
}

/**
 * The room's presence, kept in its synchronous KV storage (so two handlers cannot interleave a read
 * and a write); every change makes sure the room's alarm fires no later than the next check.
 */
export class PresenceBook {
  constructor(
    private readonly kv: SyncKvStorage,
    private readonly isOnline: (userId: string) => boolean,
    private readonly armAlarm: (dueAt: number) => Promise<void>,
  ) {}

  private read(): Record<string, Presence> {
    return this.kv.get<Record<string, Presence>>("presence") ?? {};
  }

  private save(presence: Record<string, Presence>, dueAt?: number): Promise<void> {
    this.kv.put("presence", presence);
    return dueAt === undefined ? Promise.resolve() : this.armAlarm(dueAt);
  }

  /** A participant's last socket closed: remember when, and look for unread mail in 15 minutes. */
  left(userId: string, now: number): Promise<void> {
    const presence = this.read();
    presence[userId] = { ...presence[userId], lastSeen: now, pending: true };
    return this.save(presence, now + OFFLINE_MAIL_AFTER_MS);
  }

  /** Recipients who are away get an e-mail check; an HTTP sender counts as present. */
  async afterMessage(senderId: string, participants: string[], senderPresentOverHttp: boolean): Promise<void> {
    const away = participants.filter((id) => id !== senderId && !this.isOnline(id));
    if (away.length === 0 && !senderPresentOverHttp) return;
    const presence = this.read();
    const now = Date.now();
    const seenSender = senderPresentOverHttp && !this.isOnline(senderId) ? senderId : null;
    const { changed, due } = noteMessage(presence, away, seenSender, now, senderId === SYSTEM_USER_ID);
    if (changed) await this.save(presence, due === undefined ? undefined : Math.max(now, due));
  }

  /** The alarm's mail round (mailWhoIsAway); the alarm is set again for the earlier of `next` and the next check. */
  async mailWhoIsAway(now: number, next: number | undefined, mail: (userId: string) => Promise<boolean>): Promise<void> {
    const presence = this.read();
    const due = await mailWhoIsAway(presence, now, this.isOnline, mail);
    await this.save(presence, next === undefined ? due : due === undefined ? next : Math.min(next, due));
  }
}
