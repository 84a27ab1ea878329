import * as Dialog from "@radix-ui/react-dialog";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { PRICE_MAX, PRICE_MIN, SEARCH_DEBOUNCE_MS } from "../../../domain/limits";
import { resultCountText, SEARCH_TOTAL_CAP } from "../../../domain/schemas/search";
import { AGE_RANGES, CATEGORIES, CONDITIONS } from "../../../domain/taxonomy";
import { Button } from "../../components/ui/Button";
import { Input } from "../../components/ui/Input";
import { cn } from "../../lib/cn";
import { searchCountQuery, type SearchCount } from "../../api/search";
import { AttributeFilters, CheckOption, Group } from "./FilterControls";
import { PriceFilter } from "./PriceFilter";
import { clearFilters, filtersKey, parseFilters, priceErrors, readPriceText, type Draft, type SearchFilters } from "./searchFilters";
import { useDebouncedValue } from "./useDebouncedValue";
import { formatNumber } from "../../../domain/format";
import type { ListingAttributeKey } from "../../../domain/listing-fields";
import { attributeFilters } from "../../../domain/listing-field-rules";

export interface FilterSheetProps {
  filters: SearchFilters;
  /** The current result count, if known (the sheet's button shows it until the draft differs). */
  total: SearchCount | undefined;
  onApply: (filters: SearchFilters) => void;
}

export interface FilterDialogProps extends FilterSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the sheet closes (the "Filter" button, which is outside this dialog). */
  returnFocusTo: () => HTMLElement | null;
}

/**
 * The bottom sheet (85% of the viewport height), loaded when first opened (FilterSheet.tsx). It edits
 * a draft; "Vis n annonser" applies it as one history entry, closing the sheet any other way discards it.
 */
export function FilterDialog({ open, onOpenChange, returnFocusTo, filters, total, onApply }: FilterDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo()?.focus();
          }}
          className={cn(
            "fixed inset-x-0 bottom-0 z-50 flex flex-col rounded-t-3xl bg-white shadow-2xl focus:outline-none",
            // 85% of the viewport; dvh where supported so the phone's browser bars do not hide the buttons.
            "h-[85vh] supports-[height:1dvh]:h-[85dvh] sm:mx-auto sm:max-w-2xl",
          )}
        >
          <FilterForm
            filters={filters}
            total={total}
            onApply={(next) => {
              onApply(next);
              onOpenChange(false);
            }}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function draftOf(f: SearchFilters): Draft {
  return {
    categories: f.categories,
    conditions: f.conditions,
    ages: f.ages,
    minText: f.min === null ? "" : String(f.min),
    maxText: f.max === null ? "" : String(f.max),
    free: f.free,
    trade: f.trade,
    postal: f.postal,
    fields: attributeFilters((key) => f[key as ListingAttributeKey]),
  };
}

/** A box's price for the slider and the preview count: within the range (the errors say what is wrong). */
function priceOf(text: string, fallback: number): number {
  const price = readPriceText(text);
  if (price.kind === "negative") return PRICE_MIN;
  return price.kind === "kroner" ? Math.min(price.value, PRICE_MAX) : fallback;
}

/** The slider's two values: the inputs' prices, in order. */
function sliderValues(d: Draft): [number, number] {
  const a = priceOf(d.minText, PRICE_MIN);
  const b = priceOf(d.maxText, PRICE_MAX);
  return a <= b ? [a, b] : [b, a];
}

function filtersOf(d: Draft, base: SearchFilters): SearchFilters {
  const [min, max] = sliderValues(d);
  return {
    ...base,
    categories: d.categories,
    conditions: d.conditions,
    ages: d.ages,
    min: min > PRICE_MIN ? min : null,
    max: max < PRICE_MAX ? max : null,
    free: d.free,
    trade: d.trade,
    postal: d.postal.replace(/\D/g, "").slice(0, 4),
    ...attributeFilters((key) => d.fields[key as ListingAttributeKey]),
  };
}

function toggle<T>(list: T[], value: T, on: boolean): T[] {
  return on ? (list.includes(value) ? list : [...list, value]) : list.filter((v) => v !== value);
}

function FilterForm({ filters, total, onApply }: FilterSheetProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters));
  const update = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const next = filtersOf(draft, filters);
  // The preview count follows the draft once it rests (typing a price is many changes).
  const previewKey = useDebouncedValue(filtersKey(next), SEARCH_DEBOUNCE_MS);
  const unchanged = previewKey === filtersKey(filters);
  const preview = useQuery(searchCountQuery(parseFilters(previewKey), !unchanged));
  const count = unchanged ? total : preview.data;

  const [low, high] = sliderValues(draft);

  // A price box says what is wrong once it has been left (or the form sent), not while typing; free
  // only ignores the prices, so nothing there blocks it.
  const [checked, setChecked] = useState({ min: false, max: false });
  const errors = draft.free ? {} : priceErrors(draft.minText, draft.maxText);
  const minError = checked.min ? errors.min : undefined;
  const maxError = checked.max ? errors.max : undefined;
  const minRef = useRef<HTMLInputElement>(null);
  const maxRef = useRef<HTMLInputElement>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (errors.min || errors.max) {
      setChecked({ min: true, max: true });
      const box = (errors.min ? minRef : maxRef).current;
      box?.focus();
      // On a phone the message under the box would sit behind the sheet's button bar.
      box?.parentElement?.scrollIntoView?.({ block: "center" });
      return;
    }
    onApply(next);
  }

  return (
    <form onSubmit={handleSubmit} className="flex min-h-0 flex-1 flex-col" noValidate>
      <div className="flex items-center justify-between gap-3 border-b border-stone-200 px-4 py-3">
        <div>
          <Dialog.Title className="text-xl font-bold text-stone-900">Filter</Dialog.Title>
          <Dialog.Description className="sr-only">Velg filtre, og trykk på knappen nederst for å vise annonsene.</Dialog.Description>
        </div>
        <Dialog.Close
          className="inline-flex size-11 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100"
          aria-label="Lukk"
        >
          <X aria-hidden="true" className="size-6" />
        </Dialog.Close>
      </div>

      <div className="min-h-0 flex-1 scroll-py-4 space-y-6 overflow-y-auto overscroll-contain px-4 py-5">
        <Group legend="Kategori">
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {CATEGORIES.map((c) => (
              <CheckOption
                key={c.key}
                label={c.label}
                checked={draft.categories.includes(c.key)}
                onChange={(on) => update({ categories: toggle(draft.categories, c.key, on) })}
              />
            ))}
          </div>
        </Group>

        <Group legend="Tilstand">
          <div className="grid gap-2 sm:grid-cols-2">
            {CONDITIONS.map((c) => (
              <CheckOption
                key={c.rating}
                label={c.label}
                hint={c.description}
                checked={draft.conditions.includes(c.rating)}
                onChange={(on) => update({ conditions: toggle(draft.conditions, c.rating as number, on) })}
              />
            ))}
          </div>
        </Group>

        <Group legend="Alder">
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {AGE_RANGES.map((age) => (
              <CheckOption
                key={age}
                label={age}
                checked={draft.ages.includes(age)}
                onChange={(on) => update({ ages: toggle(draft.ages, age, on) })}
              />
            ))}
          </div>
        </Group>

        <PriceFilter
          id={id}
          draft={draft}
          low={low}
          high={high}
          errors={{ min: minError, max: maxError }}
          refs={{ min: minRef, max: maxRef }}
          onChange={update}
          onLeave={(box) => setChecked((c) => ({ ...c, [box]: true }))}
        />

        <Group legend="Bytte">
          <CheckOption
            label="Åpen for bytte"
            hint="Selgeren vil gjerne bytte"
            checked={draft.trade}
            onChange={(on) => update({ trade: on })}
          />
        </Group>

        <div>
          <label htmlFor={`${id}-postal`} className="block text-base font-bold text-stone-900">
            Postnummer
          </label>
          <p id={`${id}-postal-hint`} className="mb-2 text-sm text-stone-700">
            Hele postnummeret, eller starten av det (for eksempel 03).
          </p>
          <Input
            id={`${id}-postal`}
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={4}
            pattern="[0-9]*"
            aria-describedby={`${id}-postal-hint`}
            className="max-w-40"
            value={draft.postal}
            onChange={(e) => update({ postal: e.target.value.replace(/\D/g, "").slice(0, 4) })}
          />
        </div>

        <AttributeFilters values={draft.fields} onChange={(fields) => update({ fields })} />
      </div>

      <div className="flex gap-3 border-t border-stone-200 bg-white px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
        <Button
          variant="secondary"
          onClick={() => {
            setDraft(draftOf(clearFilters(filters)));
            setChecked({ min: false, max: false });
          }}
        >
          Nullstill
        </Button>
        <Button type="submit" className="flex-1">
          {showButtonText(count)}
        </Button>
      </div>
    </form>
  );
}

function showButtonText(count: SearchCount | undefined): string {
  if (count === undefined) return "Vis annonser";
  if (count.capped) return `Vis ${count.total >= SEARCH_TOTAL_CAP ? "over" : "ca."} ${formatNumber(count.total)} annonser`;
  return `Vis ${resultCountText(count.total)}`;
}
