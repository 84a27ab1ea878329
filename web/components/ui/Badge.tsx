import type { HTMLAttributes } from "react";
import { cn } from "../../lib/cn";

export type BadgeTone =
  | "free"
  | "trade"
  | "payment"
  | "neutral"
  | "reserved"
  | "waiting"
  | "info"
  | "success"
  | "danger"
  | "muted"
  | "outline";

// One tone per badge: colours are never passed in `className` too, as two background utilities on
// one element resolve by stylesheet order, not by the order written (every trade badge came out grey).
// All pairs are AA (≥ 4.5:1) for the small bold text.
const tones: Record<BadgeTone, string> = {
  free: "bg-emerald-100 text-emerald-900",
  trade: "bg-accent-200 text-accent-900",
  payment: "bg-sky-100 text-sky-900",
  neutral: "bg-stone-100 text-stone-800",
  reserved: "bg-stone-800 text-white",
  waiting: "bg-accent-100 text-accent-900",
  info: "bg-sky-100 text-sky-900",
  success: "bg-emerald-100 text-emerald-900",
  danger: "bg-red-100 text-red-900",
  muted: "bg-stone-200 text-stone-800",
  outline: "border border-stone-400 bg-white text-stone-700",
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap",
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
