// When a ConversationRoom copies to D1 (docs/decisions/140-mirror-window.md): at once when someone
// away from the room would see the difference, otherwise within the mirror window, so a busy room's
// messages go in one batch. The room's one alarm runs the mirror; this keeps when it is due and who
// left the room since, whose inboxes the alarm tells after it.
import { MIRROR_REARM_MS, MIRROR_RETRY_MS, mirrorWindowMs } from "./room-mirror";

export class MirrorClock {
  /**
   * When the pending mirror alarm is due (0: none pending). Nothing moves it later; a change finds it
   * set and adds nothing, unless it is MIRROR_REARM_MS overdue (set again) or the change must reach
   * D1 at once and it is later (brought forward).
   */
  private dueAt = 0;
  /** Participants who left the room since the last alarm; it tells their inboxes after its mirror. */
  private readonly left = new Set<string>();

  /** `setAlarm`: the room's alarm, a storage write that commits with the change, before its frames leave. */
  constructor(private readonly setAlarm: (at: number) => void) {}

  get pending(): boolean {
    return this.dueAt !== 0;
  }

  /** A change D1 lacks: mirror now (`atOnce`) or within the window. */
  arm(atOnce: boolean, now = Date.now()): void {
    const dueAt = atOnce ? now : now + mirrorWindowMs();
    const pending = this.dueAt !== 0 && now < this.dueAt + MIRROR_REARM_MS;
    if (pending && this.dueAt <= dueAt) return;
    this.dueAt = dueAt;
    this.setAlarm(dueAt);
  }

  /** `userId` left the room: mirror now, and tell their inbox after. */
  leftRoom(userId: string): void {
    this.left.add(userId);
    this.arm(true);
  }

  /** The mirror failed (D1 unreachable for a moment): the alarm tries again later. */
  retry(now = Date.now()): void {
    this.dueAt = now + MIRROR_RETRY_MS;
    this.setAlarm(this.dueAt);
  }

  /** The alarm runs: nothing is pending any more. Returns who left since, to tell. */
  fired(): string[] {
    this.dueAt = 0;
    const left = [...this.left];
    this.left.clear();
    return left;
  }
}
