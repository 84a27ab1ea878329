import { useId, type ReactNode } from "react";

/** One titled section of the filter sheet. */
export function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="mb-2 text-base font-bold text-stone-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

export function CheckOption({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  // The whole box is the click target; the checkbox's name is the label alone, the hint describes it.
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
      <input
        type="checkbox"
        className="size-5 shrink-0 accent-brand-700"
        checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="leading-tight">
        <span id={`${id}-label`} className="block font-medium text-stone-900">
          {label}
        </span>
        {hint ? (
          <span id={`${id}-hint`} className="block text-sm text-stone-700">
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
}
