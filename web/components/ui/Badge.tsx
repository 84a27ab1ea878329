import type { HTMLAttributes } from "react";
import { cn } from "../../lib/cn";

export type BadgeTone = "free" | "trade" | "payment" | "neutral" | "reserved";

const tones: Record<BadgeTone, string> = {
  free: "bg-emerald-100 text-emerald-900",
  trade: "bg-accent-200 text-accent-900",
  payment: "bg-sky-100 text-sky-900",
  neutral: "bg-stone-100 text-stone-800",
  reserved: "bg-stone-800 text-white",
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap", tones[tone], className)}
      {...props}
    />
  );
}
