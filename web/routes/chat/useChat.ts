// The live chat: the first page over HTTP, then the room's socket from the last seq we have. A send
// goes over the socket and waits for the room's acknowledgement (it is in D1 by then); without a
// socket, or without an answer in time, the same message (same id) goes over HTTP and lands once.
import { useCallback, useEffect, useRef, useState } from "react";
import { ERROR_STATUS, type ErrorCode } from "../../../domain/errors";
import {
  MESSAGE_REMOVED_EVENT,
  SEND_ACK_TIMEOUT_MS,
  type ChatMessage,
  type MessageRemovedEvent,
  type RoomFrame,
} from "../../../domain/chat";
import { ApiError } from "../../api/client";
import { liveUrl, markRead, postMessage, type MessagePage } from "../../api/chat";
import { LiveSocket, type LiveStatus } from "../../lib/liveSocket";
import { newMessageId } from "../../lib/messageId";
import { applyOwnReadHorizon, applyRead, applyRemoved, lastSeq, mergeMessages, unreadIncomingUpTo } from "./chatState";

interface PendingSend {
  resolve: (message: ChatMessage) => void;
  reject: (error: unknown) => void;
  /** Send the same message over HTTP instead (no ack in time, or the socket went away). */
  fallback: () => void;
}

export interface ChatOptions {
  conversationId: string;
  myId: string;
  /** The newest page, loaded over HTTP before the socket connects. */
  initial: MessagePage | undefined;
  /** Live events from other features (`{ type: "event", name, data }`), e.g. a trade offer changed. */
  onEvent?: (name: string, data: unknown) => void;
  /**
   * After each catch-up (the first connection and every reconnect). The room replays messages but
   * not events: what changed while the socket was not connected is fetched again here.
   */
  onCaughtUp?: () => void;
}

export interface Chat {
  messages: ChatMessage[];
  status: LiveStatus;
  send: (content: string) => Promise<ChatMessage>;
}

export function useChat({ conversationId, myId, initial, onEvent, onCaughtUp }: ChatOptions): Chat {
  const [messages, setMessages] = useState<ChatMessage[]>(() => initial?.messages ?? []);
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const socketRef = useRef<LiveSocket | null>(null);
  const pending = useRef(new Map<string, PendingSend>());
  const readRequested = useRef(0);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const onCaughtUpRef = useRef(onCaughtUp);
  onCaughtUpRef.current = onCaughtUp;

  const merge = useCallback((incoming: ChatMessage[]) => setMessages((current) => mergeMessages(current, incoming)), []);

  useEffect(() => {
    if (initial) merge(initial.messages);
  }, [initial, merge]);

  // The socket, once the first page is in (so `after` is known).
  useEffect(() => {
    if (!initial) return;
    const socket = new LiveSocket({
      // The last seq we have (the first page may not be in state yet when the socket starts).
      url: () => {
        const after = Math.max(lastSeq(messagesRef.current), lastSeq(initial.messages));
        return liveUrl(`/api/conversations/${encodeURIComponent(conversationId)}/live?after=${after}`);
      },
      onStatus: (next) => {
        setStatus(next);
        if (next !== "open") for (const p of pending.current.values()) p.fallback();
      },
      onFrame: (raw) => {
        const frame = raw as RoomFrame & { read_up_to?: number };
        switch (frame.type) {
          case "sync":
            merge(frame.messages);
            if (frame.done && frame.read_up_to) setMessages((current) => applyOwnReadHorizon(current, myId, frame.read_up_to!));
            if (frame.done) onCaughtUpRef.current?.();
            break;
          case "message":
            merge([frame.message]);
            break;
          case "ack": {
            merge([frame.message]);
            const p = pending.current.get(frame.id);
            pending.current.delete(frame.id);
            p?.resolve(frame.message);
            break;
          }
          case "read":
            setMessages((current) => applyRead(current, frame.reader_id, frame.up_to_seq, frame.read_at));
            break;
          case "error": {
            const p = frame.id ? pending.current.get(frame.id) : undefined;
            if (frame.id) pending.current.delete(frame.id);
            const code = frame.code as ErrorCode;
            p?.reject(new ApiError(ERROR_STATUS[code] ?? 500, code, frame.message));
            break;
          }
          case "event":
            if (frame.name === MESSAGE_REMOVED_EVENT) setMessages((current) => applyRemoved(current, frame.data as MessageRemovedEvent));
            onEventRef.current?.(frame.name, frame.data);
            break;
        }
      },
    });
    socketRef.current = socket;
    socket.start();
    return () => {
      socket.stop();
      socketRef.current = null;
    };
  }, [initial, conversationId, myId, merge]);

  // Opening the chat, and every incoming message while it is open and visible, marks read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: messages and status are triggers (a new message, a reconnect), not inputs
  useEffect(() => {
    const markVisible = () => {
      if (document.visibilityState === "hidden") return;
      const upTo = unreadIncomingUpTo(messagesRef.current, myId);
      if (upTo === 0 || upTo <= readRequested.current) return;
      readRequested.current = upTo;
      const sent = socketRef.current?.send(JSON.stringify({ type: "read", up_to_seq: upTo }));
      if (!sent) {
        markRead(conversationId, upTo)
          .then((result) => setMessages((current) => applyRead(current, myId, result.up_to_seq, new Date().toISOString())))
          .catch((error: unknown) => {
            readRequested.current = 0;
            console.warn("Marking messages read failed", error); // only logged (docs/product.md "Error messages")
          });
      }
    };
    markVisible();
    document.addEventListener("visibilitychange", markVisible);
    return () => document.removeEventListener("visibilitychange", markVisible);
  }, [messages, status, conversationId, myId]);

  const send = useCallback(
    (content: string): Promise<ChatMessage> => {
      const id = newMessageId();
      const overHttp = () => postMessage(conversationId, { id, content });
      const socket = socketRef.current;
      const done = (message: ChatMessage) => {
        merge([message]);
        return message;
      };
      if (!socket?.send(JSON.stringify({ type: "send", id, content }))) return overHttp().then(done);
      return new Promise<ChatMessage>((resolve, reject) => {
        let settled = false;
        const finish = (fn: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          pending.current.delete(id);
          fn();
        };
        const fallback = () => finish(() => overHttp().then(done).then(resolve, reject));
        const timer = setTimeout(fallback, SEND_ACK_TIMEOUT_MS);
        pending.current.set(id, {
          resolve: (message) => finish(() => resolve(done(message))),
          reject: (error) => finish(() => reject(error)),
          fallback,
        });
      });
    },
    [conversationId, merge],
  );

  return { messages, status, send };
}
