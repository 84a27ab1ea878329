import { UserRound } from "lucide-react";
import { useId, type ReactNode } from "react";
import { cn } from "../lib/cn";

/**
 * "Selger" with the seller's name and one line about them (listing detail, /betaling-fullfort);
 * `action` sits at the end of the card (the listing page's "Rapporter bruker").
 */
export function SellerCard({ name, children, action, className }: { name: string; children: ReactNode; action?: ReactNode; className?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn("flex items-center gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm", className)}>
      <div aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800">
        <UserRound className="size-6" />
      </div>
      <div className="min-w-0">
        <h2 id={headingId} className="text-sm font-medium text-stone-600">
          Selger
        </h2>
        <p className="truncate font-semibold text-stone-900">{name}</p>
        <p className="text-sm text-stone-700">{children}</p>
      </div>
      {action}
    </section>
  );
}
