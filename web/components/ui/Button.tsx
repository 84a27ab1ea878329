import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "../../lib/cn";

export type ButtonVariant = "primary" | "accent" | "secondary" | "ghost";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-stone-400",
  accent: "bg-accent-300 text-stone-900 hover:bg-accent-400 disabled:bg-stone-200 disabled:text-stone-600",
  secondary: "border border-stone-300 bg-white text-brand-800 hover:bg-brand-50 disabled:text-stone-500",
  ghost: "text-stone-800 hover:bg-stone-100 disabled:text-stone-500",
};

const sizes: Record<ButtonSize, string> = {
  sm: "min-h-9 px-3 text-sm",
  md: "min-h-11 px-4 text-base",
  lg: "min-h-12 px-6 text-lg",
  icon: "size-11",
};

export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md", className?: string): string {
  return cn(
    "inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors disabled:cursor-not-allowed",
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: Ref<HTMLButtonElement>;
}

/** A button; for a link with a button's look use `buttonClasses` on the Link. */
export function Button({ variant, size, className, type, ...props }: ButtonProps) {
  return <button type={type ?? "button"} className={buttonClasses(variant, size, className)} {...props} />;
}
