import type { ReactNode } from "react";
import { cn } from "../../../lib/cn";

export interface ChoiceCardProps {
  /** The radio group's name (one per fieldset). */
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  icon?: ReactNode;
  /** The first line, in bold. */
  label: ReactNode;
  /** Lines under the label. */
  detail?: ReactNode;
  /** At the right edge (a price). */
  aside?: ReactNode;
}

/**
 * One radio button of the buy dialog drawn as a card at least 56 px high: the real input stays in
 * the page for the keyboard (arrow keys move within the group) and screen readers, hidden visually;
 * the card shows its checked and focused states.
 */
export function ChoiceCard({ name, value, checked, onChange, icon, label, detail, aside }: ChoiceCardProps) {
  return (
    <label className="block">
      <input type="radio" name={name} value={value} checked={checked} onChange={onChange} className="peer sr-only" />
      <span
        className={cn(
          "flex min-h-14 cursor-pointer items-center gap-3 rounded-xl border border-stone-400 px-3 py-2 text-stone-900",
          "peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:ring-2 peer-checked:ring-brand-700",
          "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
        )}
      >
        {icon ? (
          <span aria-hidden="true" className="shrink-0 text-brand-800">
            {icon}
          </span>
        ) : null}
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="font-semibold">{label}</span>
          {detail ? <span className="text-sm text-stone-700">{detail}</span> : null}
        </span>
        {aside ? <span className="shrink-0 font-semibold">{aside}</span> : null}
      </span>
    </label>
  );
}
