import { useId, useState, type FormEvent } from "react";
import { REPORT_DESCRIPTION_MAX_LENGTH, reportDialogTitle, type ReportTargetType } from "../../domain/moderation";
import { REPORT_PRIORITIES, REPORT_REASONS } from "../../domain/schemas/content";
import type { ReportPriority } from "../../domain/moderation";
import { isApiError } from "../api/client";
import { fileReport } from "../api/moderation";
import { toastError, toastSuccess } from "../lib/toast";
import { Label } from "./ui/Label";
import { fieldClasses, Modal, ModalFormActions } from "./Modal";

export interface ReportTarget {
  type: ReportTargetType;
  id: string;
}

export interface ReportDialogProps {
  target: ReportTarget | null;
  onClose: () => void;
}

/** The text for a failed report (docs/product.md "Error messages"); a refusal the user can act on (own content, too many) shows the server's. */
const FAILED = "Kunne ikke sende rapport. Prøv igjen senere.";

/**
 * "Rapporter {annonse|melding|bruker|profil|innhold}" (docs/product.md "Moderation", "Validation"): a reason
 * from the ten (required, "Velg en årsak"), optional extra info, priority Lav / Normal (default) /
 * Høy / Haster.
 */
export function ReportDialog({ target, onClose }: ReportDialogProps) {
  return (
    <Modal open={target !== null} onOpenChange={(open) => !open && onClose()} title={reportDialogTitle(target?.type)}>
      {target ? <ReportForm key={`${target.type}:${target.id}`} target={target} onDone={onClose} /> : null}
    </Modal>
  );
}

function ReportForm({ target, onDone }: { target: ReportTarget; onDone: () => void }) {
  const [reason, setReason] = useState("");
  const [description, setDescription] = useState("");
  const [priority, setPriority] = useState<ReportPriority>("normal");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ids = { reason: useId(), description: useId(), priority: useId(), error: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (!(REPORT_REASONS as readonly string[]).includes(reason)) {
      setError("Velg en årsak");
      return;
    }
    setSending(true);
    try {
      await fileReport({
        target_type: target.type,
        target_id: target.id,
        reason: reason as (typeof REPORT_REASONS)[number],
        description,
        priority,
      });
      toastSuccess("Rapport sendt");
      onDone();
    } catch (err) {
      const actionable = isApiError(err) && [403, 404, 429].includes(err.status);
      toastError("Feil", actionable ? err.message : FAILED, { error: err });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-4">
      <div>
        <Label htmlFor={ids.reason}>Årsak</Label>
        <select
          id={ids.reason}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          className={fieldClasses}
        >
          <option value="">Velg en årsak</option>
          {REPORT_REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {error ? (
          <p id={ids.error} className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <div>
        <Label htmlFor={ids.description}>Tilleggsinformasjon (valgfritt)</Label>
        <textarea
          id={ids.description}
          value={description}
          maxLength={REPORT_DESCRIPTION_MAX_LENGTH}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="Beskriv gjerne hva som er galt"
          className={fieldClasses}
        />
      </div>
      <div>
        <Label htmlFor={ids.priority}>Prioritet</Label>
        <select id={ids.priority} value={priority} onChange={(e) => setPriority(e.target.value as ReportPriority)} className={fieldClasses}>
          {REPORT_PRIORITIES.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <ModalFormActions onCancel={onDone} sending={sending} submitLabel="Send rapport" />
    </form>
  );
}
