import { useCallback, useLayoutEffect, useRef, type RefObject } from "react";
import { groupByOsloDay } from "../../../domain/chat-days";
import type { ChatMessage } from "../../../domain/chat";
import { MessageBubble } from "./MessageBubble";

export interface MessageListProps {
  /** "Rapporter melding" on another person's message. */
  onReport: (messageId: string) => void;
  messages: ChatMessage[];
  myId: string;
  otherName: string;
  /** The scroll container (owned by the page, which also keeps the composer below it). */
  scrollRef: RefObject<HTMLDivElement | null>;
}

/** Within this distance of the bottom the list follows new messages. */
const STICKY_PX = 96;

/**
 * Messages grouped by Oslo day ("I dag", "I går", a date), newest at the bottom. It stays scrolled to
 * the newest message unless the reader has scrolled up; new messages are announced politely.
 */
export function MessageList({ messages, myId, otherName, scrollRef, onReport }: MessageListProps) {
  const stick = useRef(true);
  const lastOwn = useRef<string | null>(null);
  /** The reader's own message just came in: the next growth of the list scrolls to it wherever they were. */
  const followOwn = useRef(false);
  const observer = useRef<ResizeObserver | null>(null);
  const list = useRef<HTMLElement | null>(null);
  // The list's element changes (the empty line, then the messages): the observer follows it.
  const listRef = useCallback((element: HTMLElement | null) => {
    if (list.current) observer.current?.unobserve(list.current);
    list.current = element;
    if (element) observer.current?.observe(element);
  }, []);

  // Scrolled to the newest from a ResizeObserver, which runs after the browser's own layout: reading
  // the height there costs nothing, where reading it as React commits forced a layout inside React's
  // task (on a phone about half of each render of the chat as its answers land).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICKY_PX;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    // The list growing (the first messages, a new one), the composer growing (a long message) or the
    // keyboard opening: keep the newest in view.
    const resize = new ResizeObserver(() => {
      if (stick.current || followOwn.current) el.scrollTop = el.scrollHeight;
      followOwn.current = false;
    });
    resize.observe(el);
    if (list.current) resize.observe(list.current);
    observer.current = resize;
    return () => {
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
      observer.current = null;
    };
  }, [scrollRef]);

  // No layout read here: the observer scrolls once the list has grown by the message.
  useLayoutEffect(() => {
    const newest = messages[messages.length - 1];
    if (newest && newest.sender_id === myId && newest.id !== lastOwn.current) {
      lastOwn.current = newest.id;
      followOwn.current = true;
    }
  }, [messages, myId]);

  if (messages.length === 0) {
    return (
      <p ref={listRef} role="log" aria-live="polite" className="flex h-full items-center justify-center p-6 text-center text-stone-700">
        Ingen meldinger ennå. Send den første!
      </p>
    );
  }

  return (
    <div ref={listRef} role="log" aria-live="polite" aria-label="Meldinger" className="space-y-4 px-3 py-4">
      {groupByOsloDay(messages, (m) => m.created_at).map((group) => (
        <section key={group.day} aria-label={group.label}>
          {/* In the flow, not sticky: a floating label would cover the message scrolled under it. */}
          <h2 className="mx-auto mb-3 w-fit rounded-full bg-stone-200 px-3 py-0.5 text-xs font-semibold text-stone-800">{group.label}</h2>
          <ol className="space-y-2">
            {group.items.map((m) => (
              <MessageBubble key={m.id} message={m} own={m.sender_id === myId} otherName={otherName} onReport={onReport} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
