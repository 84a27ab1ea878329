import { useId } from "react";
import {
  SAVED_SEARCH_ALERT_LABELS,
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_DIGEST_HOUR,
  type SavedSearchAlert,
} from "../../../domain/saved-searches";
import { cn } from "../../lib/cn";

const HINTS: Record<SavedSearchAlert, string> = {
  immediate: "E-post så snart det kommer en annonse som passer.",
  daily: `Én e-post om dagen, rundt kl. ${SAVED_SEARCH_DIGEST_HOUR}, med dagens nye annonser.`,
  off: "Ingen e-post. Du ser nye treff under Lagrede søk.",
};

/** When to get an e-mail about new matches: Straks, Daglig oppsummering or Av (native radio buttons). */
export function AlertChoice({
  value,
  onChange,
  disabled,
}: {
  value: SavedSearchAlert;
  onChange: (alert: SavedSearchAlert) => void;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="mb-2 text-sm font-medium text-stone-800">Varsel om nye annonser</legend>
      <div className="space-y-2">
        {SAVED_SEARCH_ALERTS.map((alert) => (
          <label
            key={alert}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-xl border p-3",
              value === alert ? "border-brand-700 bg-brand-50" : "border-stone-300 bg-white hover:border-stone-500",
            )}
          >
            <input
              type="radio"
              name={name}
              value={alert}
              checked={value === alert}
              onChange={() => onChange(alert)}
              className="mt-0.5 size-5 shrink-0 accent-brand-700"
            />
            <span>
              <span className="block font-semibold text-stone-900">{SAVED_SEARCH_ALERT_LABELS[alert]}</span>
              <span className="block text-sm text-stone-700">{HINTS[alert]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
