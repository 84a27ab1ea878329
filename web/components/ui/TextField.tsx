import { useId } from "react";
import { Input, type InputProps } from "./Input";
import { Label } from "./Label";

export interface TextFieldProps extends InputProps {
  label: string;
  /** Shown under the field and tied to it with aria-describedby; also marks it invalid. */
  error?: string;
  hint?: string;
}

/** A labelled input with its hint and error text wired up for assistive technology. */
export function TextField({ label, error, hint, id, className, ...inputProps }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;

  return (
    <div className={className}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
