import type { InputHTMLAttributes, Ref } from "react";
import { cn } from "../../lib/cn";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, ...props }: InputProps) {
  return (
    <input
      className={cn(
        "block min-h-11 w-full rounded-xl border border-stone-500 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500",
        "focus-visible:border-brand-700 disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-600",
        "aria-invalid:border-red-700",
        className,
      )}
      {...props}
    />
  );
}
