import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "./Link";
import { buttonClasses } from "./ui/Button";
import { ErrorCode } from "./ErrorCode";

/**
 * A page's list that could not be loaded: what failed, a server error's "Feilkode" (decision 133),
 * and "Prøv igjen" (disabled while it retries).
 */
export function ListLoadFailed({
  children,
  onRetry,
  retrying,
  error,
}: {
  children: ReactNode;
  onRetry: () => void;
  retrying: boolean;
  error?: unknown;
}) {
  return (
    <div className="mt-6 space-y-3">
      <p className="text-stone-700">{children}</p>
      <ErrorCode error={error} />
      <button type="button" className={buttonClasses("secondary", "sm")} onClick={onRetry} disabled={retrying}>
        Prøv igjen
      </button>
    </div>
  );
}

/** A page's list with nothing in it yet: an icon, the text, and "Finn leker" to /search. */
export function EmptyListFindToys({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white p-8 text-center">
      <Icon aria-hidden="true" className="size-8 text-stone-500" />
      {children}
      <Link to="/search" className={buttonClasses("secondary", "sm", "mt-4")}>
        Finn leker
      </Link>
    </div>
  );
}
