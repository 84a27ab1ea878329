// How the Worker and the objects address each other: one room per conversation id, one inbox per
// user id (names, so any Worker instance reaches the same object).
import type { Bindings } from "../../env";

export function roomStub(env: Bindings, conversationId: string) {
  return env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId));
}

export function inboxStub(env: Bindings, userId: string) {
  return env.USER_INBOX.get(env.USER_INBOX.idFromName(userId));
}
