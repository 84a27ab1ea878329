import { Check, CheckCheck, EllipsisVertical } from "lucide-react";
import { messageTime } from "../../../domain/chat-days";
import { SYSTEM_USER_ID, type ChatMessage } from "../../../domain/chat";
import { cn } from "../../lib/cn";
import { DeferredMenu } from "../../components/ui/DeferredMenu";

const loadMessageMenu = () => import("./MessageMenu");

export interface MessageBubbleProps {
  message: ChatMessage;
  own: boolean;
  otherName: string;
  onReport: (messageId: string) => void;
}

/** One message: own on the right with its read state, others' on the left with a menu. */
export function MessageBubble({ message, own, otherName, onReport }: MessageBubbleProps) {
  const system = message.sender_id === SYSTEM_USER_ID;
  const time = messageTime(message.created_at);
  return (
    <li className={cn("flex items-end gap-1", own ? "justify-end" : "justify-start")}>
      <div
        className={cn(
          "max-w-[80%] rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%]",
          own ? "rounded-br-md bg-brand-700 text-white" : "rounded-bl-md border border-stone-200 bg-white text-stone-900",
          system && "border-accent-300 bg-accent-100",
        )}
      >
        <span className="sr-only">{own ? "Du" : system ? "Lekebytte" : otherName}: </span>
        {system ? (
          <span aria-hidden="true" className="block text-xs font-bold text-accent-900">
            Lekebytte
          </span>
        ) : null}
        <p className="text-base break-words whitespace-pre-wrap">{message.content}</p>
        <p className={cn("mt-0.5 flex items-center justify-end gap-1 text-xs", own ? "text-brand-100" : "text-stone-600")}>
          <time dateTime={message.created_at}>{time}</time>
          {own ? (
            message.read_at ? (
              <CheckCheck aria-label="Lest" role="img" className="size-4" />
            ) : (
              <Check aria-label="Sendt" role="img" className="size-4" />
            )
          ) : null}
        </p>
      </div>
      {!own && !system ? (
        <DeferredMenu
          load={loadMessageMenu}
          props={{ onReport: () => onReport(message.id) }}
          trigger={{
            "aria-label": "Valg for meldingen",
            className:
              "inline-flex size-9 shrink-0 items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 hover:text-stone-900",
            children: <EllipsisVertical aria-hidden="true" className="size-5" />,
          }}
        />
      ) : null}
    </li>
  );
}
