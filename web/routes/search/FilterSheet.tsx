import { SlidersHorizontal } from "lucide-react";
import { Suspense, useRef, useState } from "react";
import { Button } from "../../components/ui/Button";
import type { FilterSheetProps } from "./FilterDialog";
import { activeFilterCount } from "./searchFilters";
import { lazyCode } from "../../lib/missingCode";

export type { FilterSheetProps } from "./FilterDialog";

// The sheet (dialog, slider, checkboxes: about 20 KB gzipped) loads when someone opens it, not with
// the search page: most visits only look at the results.
const FilterDialog = lazyCode(() => import("./FilterDialog").then((m) => ({ default: m.FilterDialog })));

/** The "Filter" button with the count of active filters; it opens the filter sheet. */
export function FilterSheet(props: FilterSheetProps) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const count = activeFilterCount(props.filters);

  return (
    <>
      <Button
        ref={button}
        variant="secondary"
        className="shrink-0"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
        // Start loading the sheet's code as soon as a press begins.
        onPointerDown={() => void import("./FilterDialog").catch(() => undefined)}
      >
        <SlidersHorizontal aria-hidden="true" className="size-5" />
        Filter {/* Read as "Filter 2 aktive filtre"; the visible badge is part of the name. */}
        {count > 0 ? (
          <span className="min-w-6 rounded-full bg-brand-700 px-1.5 text-center text-sm leading-6 text-white">
            {count}
            <span className="sr-only"> {count === 1 ? "aktivt filter" : "aktive filtre"}</span>
          </span>
        ) : null}
      </Button>
      {requested ? (
        <Suspense fallback={null}>
          <FilterDialog {...props} open={open} onOpenChange={setOpen} returnFocusTo={() => button.current} />
        </Suspense>
      ) : null}
    </>
  );
}
