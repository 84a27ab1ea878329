import { Bookmark } from "lucide-react";
import { Suspense, useRef, useState } from "react";
import { Button } from "../../components/ui/Button";
import { filterChips, type SearchFilters } from "./searchFilters";
import { lazyCode } from "../../lib/missingCode";

// The dialog (form, alert choice, sign-in for visitors) loads when someone wants to save, not with
// the search page.
const loadDialog = () => import("../saved-searches/SaveSearchDialog");
const SaveSearchDialog = lazyCode(() => loadDialog().then((m) => ({ default: m.SaveSearchDialog })));

/** "Lagre søk": shown when the search has text or a filter (an empty search would match everything). */
export function SaveSearchButton({ filters }: { filters: SearchFilters }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (!filters.q && filterChips(filters).length === 0) return null;

  return (
    <>
      <Button
        ref={button}
        variant="secondary"
        size="sm"
        className="shrink-0"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
        onPointerDown={() => void loadDialog().catch(() => undefined)}
      >
        <Bookmark aria-hidden="true" className="size-4" />
        Lagre søk
      </Button>
      {requested ? (
        <Suspense fallback={null}>
          <SaveSearchDialog filters={filters} open={open} onOpenChange={setOpen} returnFocusTo={() => button.current} />
        </Suspense>
      ) : null}
    </>
  );
}
