import { SendHorizontal } from "lucide-react";
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG_TEXT, messageLength } from "../../../domain/chat";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { formatNumber } from "../../../domain/format";

const COUNTER_FROM = MESSAGE_MAX_LENGTH - 200;

export interface ComposerProps {
  onSend: (content: string) => Promise<unknown>;
  disabledReason?: string;
}

/**
 * Enter sends, Shift+Enter is a new line (docs/product.md "Messages and chat"); one send at a time, "Sender..." while
 * it is in flight. A failed send keeps the text in the field.
 */
export function Composer({ onSend, disabledReason }: ComposerProps) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const inputId = useId();
  const counterId = useId();
  const reasonId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const length = messageLength(text.trim());
  const tooLong = length > MESSAGE_MAX_LENGTH;
  const blocked = sending || !!disabledReason;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = text.trim();
    if (blocked || !content || tooLong) return;
    setSending(true);
    try {
      await onSend(content);
      setText("");
    } catch (error) {
      // A reason the user can act on (too fast, too long) goes under the product's text (docs/product.md "Error messages").
      if (isApiError(error) && error.status >= 400 && error.status < 500) toastError("Kunne ikke sende melding", error.message);
      else toastError("Feil", "Kunne ikke sende melding", { error });
    } finally {
      setSending(false);
      field.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form onSubmit={submit} className="border-t border-stone-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]">
      {disabledReason ? (
        <p id={reasonId} className="mb-2 text-sm text-stone-700">
          {disabledReason}
        </p>
      ) : null}
      <div className="flex items-end gap-2">
        <label htmlFor={inputId} className="sr-only">
          Melding
        </label>
        <textarea
          id={inputId}
          ref={field}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Skriv en melding..."
          rows={1}
          disabled={!!disabledReason}
          aria-describedby={cn(length >= COUNTER_FROM && counterId, disabledReason && reasonId) || undefined}
          aria-invalid={tooLong || undefined}
          className="field-sizing-content max-h-40 min-h-11 flex-1 resize-none rounded-2xl border border-stone-400 bg-white px-4 py-2.5 text-base text-stone-900 placeholder:text-stone-600 focus:border-brand-700 disabled:bg-stone-100"
        />
        <Button type="submit" disabled={blocked || !text.trim() || tooLong} aria-busy={sending || undefined} className="min-w-24 shrink-0">
          <SendHorizontal aria-hidden="true" className="size-5" />
          {sending ? "Sender..." : "Send"}
        </Button>
      </div>
      {length >= COUNTER_FROM ? (
        <p id={counterId} className={cn("mt-1 text-right text-xs", tooLong ? "font-semibold text-red-700" : "text-stone-700")}>
          {tooLong ? `${MESSAGE_TOO_LONG_TEXT}. ` : ""}
          {formatNumber(length)} / {formatNumber(MESSAGE_MAX_LENGTH)} tegn
        </p>
      ) : null}
    </form>
  );
}
