import { useQueryClient } from "@tanstack/react-query";
import { Star } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { RATING_LABELS, REVIEW_TEXT_MAX_LENGTH, REVIEW_WINDOW_DAYS, type DealKind } from "../../../domain/reviews";
import { createReviewSchema } from "../../../domain/schemas/reviews";
import { chatKeys } from "../../api/chat";
import { isApiError } from "../../api/client";
import { reviewKeys, submitReview } from "../../api/reviews";
import { tradeKeys } from "../../api/trades";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";
import { fieldClasses, Modal, ModalFormActions } from "../Modal";
import { Label } from "../ui/Label";

export interface ReviewTarget {
  kind: DealKind;
  id: string;
  otherName: string;
}

/**
 * "Gi {navn} en vurdering": 1–5 stars (required) and an optional text. The review is blind: it shows
 * when both have written, or when the 14 days are over, and cannot be changed afterwards.
 */
export function ReviewDialog({ target, onClose }: { target: ReviewTarget | null; onClose: () => void }) {
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={target ? `Gi ${target.otherName} en vurdering` : "Gi vurdering"}
      description={`Vurderingen vises når dere begge har skrevet, eller når fristen på ${REVIEW_WINDOW_DAYS} dager er ute. Du kan ikke endre den etterpå.`}
    >
      {target ? <ReviewForm key={`${target.kind}:${target.id}`} target={target} onDone={onClose} /> : null}
    </Modal>
  );
}

function ReviewForm({ target, onDone }: { target: ReviewTarget; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ids = { stars: useId(), text: useId(), error: useId(), count: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const parsed = createReviewSchema.safeParse({ deal_kind: target.kind, deal_id: target.id, rating, text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Velg antall stjerner");
      return;
    }
    setSending(true);
    try {
      await submitReview({ deal_kind: target.kind, deal_id: target.id, rating, text });
      toastSuccess("Takk for vurderingen!", `Den vises når ${target.otherName} også har gitt sin, eller når fristen er ute.`);
      await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      await queryClient.invalidateQueries({ queryKey: chatKeys.events });
      await queryClient.invalidateQueries({ queryKey: tradeKeys.history });
      onDone();
    } catch (err) {
      toastError("Feil", isApiError(err) && err.status < 500 ? err.message : "Kunne ikke sende vurderingen. Prøv igjen senere.", {
        error: err,
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-4">
      <fieldset aria-describedby={error ? ids.error : undefined}>
        <legend className="text-sm font-semibold text-stone-900">Hvor fornøyd er du?</legend>
        <div className="mt-2 flex gap-1" id={ids.stars}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="cursor-pointer">
              <input
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  setError(null);
                }}
                aria-label={`${n} av 5 stjerner – ${RATING_LABELS[n]}`}
                className="peer sr-only"
              />
              <span className="flex size-11 items-center justify-center rounded-full peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600">
                <Star
                  aria-hidden="true"
                  className={cn("size-8", n <= rating ? "fill-amber-400 text-amber-500" : "fill-none text-stone-400")}
                />
              </span>
            </label>
          ))}
        </div>
        <p className="mt-1 min-h-5 text-sm text-stone-700" aria-live="polite">
          {rating ? RATING_LABELS[rating] : ""}
        </p>
        {error ? (
          <p id={ids.error} className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </fieldset>
      <div>
        <Label htmlFor={ids.text}>Skriv noen ord (valgfritt)</Label>
        <textarea
          id={ids.text}
          value={text}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          rows={4}
          onChange={(e) => setText(e.target.value)}
          placeholder="Hvordan var handelen? Kom dere godt overens?"
          aria-describedby={ids.count}
          className={fieldClasses}
        />
        <p id={ids.count} className="mt-1 text-right text-xs text-stone-600">
          {text.length}/{REVIEW_TEXT_MAX_LENGTH}
        </p>
      </div>
      <ModalFormActions onCancel={onDone} sending={sending} submitLabel="Send vurdering" />
    </form>
  );
}
