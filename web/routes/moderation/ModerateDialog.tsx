import { useEffect, useId, useState, type FormEvent } from "react";
import {
  ACTIONS_FOR_TARGET,
  actionLabel,
  isUserTarget,
  MODERATION_NOTES_MAX_LENGTH,
  SUSPENSION_DEFAULT_DAYS,
  SUSPENSION_MAX_DAYS,
  type ModerationAction,
} from "../../../domain/moderation";
import { dismissReport, reviewReport, takeAction, type ModerationCard } from "../../api/moderation";
import { fieldClasses, Modal } from "../../components/Modal";
import { Button } from "../../components/ui/Button";
import { Label } from "../../components/ui/Label";
import { toastError, toastSuccess } from "../../lib/toast";

export interface ModerateDialogProps {
  card: ModerationCard | null;
  onClose: () => void;
  onDone: () => void;
}

/** "Moderer rapport": hide, delete, warn or approve with notes, or dismiss the report (docs/product.md "States", "Validation"). */
export function ModerateDialog({ card, onClose, onDone }: ModerateDialogProps) {
  return (
    <Modal
      open={card !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Moderer rapport"
      description={card ? `${card.target_title} · ${card.reason}` : undefined}
    >
      {card ? <ModerateForm key={card.report_id} card={card} onDone={onDone} /> : null}
    </Modal>
  );
}

function ModerateForm({ card, onDone }: { card: ModerationCard; onDone: () => void }) {
  const [action, setAction] = useState<ModerationAction | null>(null);
  const [notes, setNotes] = useState("");
  const [days, setDays] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { actions: useId(), notes: useId(), days: useId(), error: useId() };
  const suspension = action !== null && isUserTarget(card.target_type) && (action === "hide" || action === "delete");

  // Opening a pending report marks it (and the others on its target) reviewed: "Vurdert".
  useEffect(() => {
    if (card.status === "pending")
      reviewReport(card.report_id).catch((err: unknown) => console.warn("Marking the report reviewed failed", err));
  }, [card.report_id, card.status]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!action) {
      setError("Velg en handling");
      return;
    }
    setBusy(true);
    try {
      const suspensionDays = suspension && days.trim() ? Number(days) : undefined;
      await takeAction(card.report_id, { action, notes: notes.trim() || null, suspension_days: suspensionDays });
      toastSuccess("Handling utført");
      onDone();
    } catch (error) {
      toastError("Feil", "Kunne ikke utføre handling", { error });
    } finally {
      setBusy(false);
    }
  };

  const dismiss = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await dismissReport(card.report_id, notes.trim() || null);
      toastSuccess("Rapport avvist");
      onDone();
    } catch (error) {
      toastError("Feil", "Kunne ikke avvise rapport", { error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-4">
      <fieldset aria-describedby={error ? ids.error : undefined}>
        <legend className="mb-1 text-sm font-medium text-stone-800">Handling</legend>
        <div className="space-y-1">
          {ACTIONS_FOR_TARGET[card.target_type].map((a) => (
            <label
              key={a}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-200 px-3 has-checked:border-brand-600 has-checked:bg-brand-50"
            >
              <input
                type="radio"
                name={ids.actions}
                value={a}
                checked={action === a}
                onChange={() => {
                  setAction(a);
                  setError(null);
                }}
                className="size-4 accent-brand-700"
              />
              <span className="text-stone-900">{actionLabel(a, card.target_type)}</span>
            </label>
          ))}
        </div>
        {error ? (
          <p id={ids.error} className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </fieldset>
      {suspension ? (
        <div>
          <Label htmlFor={ids.days}>Antall dager (valgfritt)</Label>
          <input
            id={ids.days}
            type="number"
            inputMode="numeric"
            min={1}
            max={SUSPENSION_MAX_DAYS}
            value={days}
            placeholder={String(SUSPENSION_DEFAULT_DAYS[action as "hide" | "delete"])}
            onChange={(e) => setDays(e.target.value)}
            className={fieldClasses}
          />
        </div>
      ) : null}
      <div>
        <Label htmlFor={ids.notes}>Notater (valgfritt)</Label>
        <textarea
          id={ids.notes}
          value={notes}
          rows={3}
          maxLength={MODERATION_NOTES_MAX_LENGTH}
          onChange={(e) => setNotes(e.target.value)}
          className={fieldClasses}
        />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => void dismiss()} disabled={busy}>
          Avvis rapport
        </Button>
        <Button type="submit" disabled={busy}>
          Utfør handling
        </Button>
      </div>
    </form>
  );
}
