import { useId, type ReactNode } from "react";
import { listingAttributes, type ListingAttributeFilters, type ListingAttributeKey } from "../../../domain/listing-fields";
import { Input } from "../../components/ui/Input";

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

/** A box per declared listing field (domain/listing-fields.ts), offering its suggestions as one types. */
export function AttributeFilters({
  values,
  onChange,
}: {
  values: ListingAttributeFilters;
  onChange: (values: ListingAttributeFilters) => void;
}) {
  const id = useId();
  return listingAttributes().map((a) => {
    const key = a.key as ListingAttributeKey;
    return (
      <div key={key}>
        <label htmlFor={`${id}-${key}`} className="mb-2 block text-base font-bold text-stone-900">
          {a.label}
        </label>
        <Input
          id={`${id}-${key}`}
          list={`${id}-${key}-list`}
          autoComplete="off"
          maxLength={a.maxLength}
          placeholder={a.placeholder}
          className="max-w-80"
          value={values[key]}
          onChange={(e) => onChange({ ...values, [key]: e.target.value })}
        />
        <datalist id={`${id}-${key}-list`}>
          {a.suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </div>
    );
  });
}
