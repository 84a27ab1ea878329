import { LoaderCircle } from "lucide-react";
import { cn } from "../../lib/cn";

export interface SpinnerProps {
  /** Visible text beside the spinner; also what screen readers announce. */
  label?: string;
  className?: string;
}

export function Spinner({ label = "Laster...", className }: SpinnerProps) {
  return (
    <div role="status" aria-live="polite" className={cn("flex items-center justify-center gap-3 text-stone-700", className)}>
      <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-brand-700" />
      <span>{label}</span>
    </div>
  );
}

/** The centred spinner used while a page or the session loads. */
export function PageSpinner({ label = "Laster..." }: { label?: string }) {
  return <Spinner label={label} className="min-h-[50vh] py-16" />;
}
