import { RefreshCw } from "lucide-react";
import { cn } from "../lib/cn";
import { Button } from "./ui/Button";

/** A staff page's title with "Oppdater", which asks the server again (spinning while it does). */
export function RefreshHeading({ title, onRefresh, refreshing }: { title: string; onRefresh: () => void; refreshing: boolean }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      <Button variant="secondary" size="sm" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className={cn("size-4", refreshing && "animate-spin")} />
        Oppdater
      </Button>
    </div>
  );
}
