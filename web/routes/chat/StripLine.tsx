import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { revealInStrip } from "./dealStrip";

interface StripLineProps {
  expanded: boolean;
  onToggle: () => void;
  /** The id of what the line opens. */
  controls: string;
  /** Hover and text colours of this kind of line (a white card's by default). */
  className?: string;
  chevronClassName?: string;
  children: ReactNode;
}

/** One line of the deal strip that opens what it summarises (an offer card, the reviews), in view (decision 088). */
export function StripLine({
  expanded,
  onToggle,
  controls,
  className = "hover:bg-stone-50",
  chevronClassName = "text-stone-600",
  children,
}: StripLineProps) {
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={(event) => {
        if (!expanded) revealInStrip(event.currentTarget);
        onToggle();
      }}
      className={cn("flex min-h-9 w-full items-center gap-2 rounded-xl px-2.5 py-0.5 text-left text-sm", className)}
    >
      {children}
      <ChevronDown aria-hidden="true" className={cn("size-4 shrink-0 transition-transform", chevronClassName, expanded && "rotate-180")} />
    </button>
  );
}
