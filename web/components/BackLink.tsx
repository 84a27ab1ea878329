import { ArrowLeft } from "lucide-react";
import { Link } from "./Link";
import { cn } from "../lib/cn";

/** The round back arrow at the start of a page's title row (a 44 px touch target). */
export function BackLink({ to, label, className }: { to: string; label: string; className?: string }) {
  return (
    <Link
      to={to}
      aria-label={label}
      className={cn("inline-flex size-11 shrink-0 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100", className)}
    >
      <ArrowLeft aria-hidden="true" className="size-6" />
    </Link>
  );
}
