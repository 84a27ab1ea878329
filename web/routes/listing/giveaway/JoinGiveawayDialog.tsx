import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { GIVEAWAY_MESSAGE_MAX_LENGTH, GIVEAWAY_TEXTS as T, mineLabel } from "../../../../domain/giveaways";
import { joinGiveawaySchema } from "../../../../domain/schemas/giveaways";
import { isApiError } from "../../../api/client";
import { joinQueue, refreshAfterMove } from "../../../api/giveaways";
import { Modal, fieldClasses } from "../../../components/Modal";
import { Button } from "../../../components/ui/Button";
import { toastSuccess } from "../../../lib/toast";

/** "Jeg vil ha den": the short message to the giver, then a place in the queue (GiveawayTakerBar). */
export default function JoinDialog({
  listingId,
  open,
  onOpenChange,
}: {
  listingId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const ids = { message: useId(), error: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = joinGiveawaySchema.safeParse({ message });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const view = await joinQueue(listingId, parsed.data.message);
      await refreshAfterMove(queryClient);
      toastSuccess(T.joined, view.mine ? mineLabel(view.mine) : undefined);
      onOpenChange(false);
    } catch (failure) {
      setError(isApiError(failure) ? (failure.fields?.message ?? failure.message) : "Noe gikk galt. Prøv igjen.");
      setSending(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={T.want}
      description="Giveren ser køen i den rekkefølgen folk meldte seg, med meldingen din."
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div>
          <label htmlFor={ids.message} className="mb-1 block font-medium text-stone-900">
            {T.messageLabel}
          </label>
          <textarea
            id={ids.message}
            value={message}
            rows={3}
            maxLength={GIVEAWAY_MESSAGE_MAX_LENGTH + 20}
            onChange={(e) => setMessage(e.target.value)}
            placeholder={T.messagePlaceholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            className={fieldClasses}
          />
          {error ? (
            <p id={ids.error} role="alert" className="mt-1 text-sm font-medium text-red-800">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Avbryt
          </Button>
          <Button type="submit" disabled={sending} aria-busy={sending || undefined}>
            {sending ? "Sender..." : T.join}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
