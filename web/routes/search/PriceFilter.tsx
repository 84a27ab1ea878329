import * as Slider from "@radix-ui/react-slider";
import type { RefObject } from "react";
import { PRICE_MAX, PRICE_MIN, PRICE_STEP } from "../../../domain/limits";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { CheckOption, Group } from "./FilterControls";
import type { Draft } from "./searchFilters";
import { formatKroner } from "./searchFilters";

type Box = "min" | "max";

export interface PriceFilterProps {
  /** The form's id prefix (the boxes' and the range text's ids). */
  id: string;
  draft: Pick<Draft, "minText" | "maxText" | "free">;
  /** The slider's two values (the boxes' prices, in order). */
  low: number;
  high: number;
  /** What is wrong with each box, once it has been left or the form sent. */
  errors: Record<Box, string | undefined>;
  refs: Record<Box, RefObject<HTMLInputElement | null>>;
  onChange: (patch: Partial<Pick<Draft, "minText" | "maxText" | "free">>) => void;
  /** A box lost focus: from now on it says what is wrong with it. */
  onLeave: (box: Box) => void;
}

/** The filter sheet's "Pris" section: "Kun gratis", the two-thumb slider and the two price boxes. */
export function PriceFilter({ id, draft, low, high, errors, refs, onChange, onLeave }: PriceFilterProps) {
  return (
    <Group legend="Pris">
      <CheckOption label="Kun gratis" hint="Bare leker som gis bort" checked={draft.free} onChange={(on) => onChange({ free: on })} />
      <div className="mt-4">
        <p id={`${id}-price-range`} className="text-sm font-medium text-stone-800" aria-live="polite">
          {draft.free ? "Prisen gjelder ikke når du bare viser gratis leker" : priceRangeText(low, high)}
        </p>
        <Slider.Root
          className="relative mt-3 flex h-11 touch-none items-center select-none data-[disabled]:cursor-not-allowed"
          min={PRICE_MIN}
          max={PRICE_MAX}
          step={PRICE_STEP}
          minStepsBetweenThumbs={1}
          value={[low, high]}
          disabled={draft.free}
          onValueChange={([a, b]) => onChange({ minText: String(a), maxText: String(b) })}
        >
          <Slider.Track className="relative h-2 grow rounded-full bg-stone-200">
            <Slider.Range className="absolute h-full rounded-full bg-brand-700 data-[disabled]:bg-stone-400" />
          </Slider.Track>
          {(
            [
              ["Minstepris", low],
              ["Makspris", high],
            ] as const
          ).map(([label, value]) => (
            <Slider.Thumb
              key={label}
              aria-label={label}
              aria-valuetext={formatKroner(value)}
              aria-disabled={draft.free || undefined}
              aria-describedby={`${id}-price-range`}
              className="block size-7 rounded-full border-2 border-brand-700 bg-white shadow data-[disabled]:border-stone-400"
            />
          ))}
        </Slider.Root>
        <div className="mt-2 grid grid-cols-2 gap-3">
          <PriceBox
            id={`${id}-min`}
            label="Fra (kr)"
            placeholder={PRICE_MIN}
            value={draft.minText}
            disabled={draft.free}
            error={errors.min}
            inputRef={refs.min}
            onChange={(minText) => onChange({ minText })}
            onLeave={() => onLeave("min")}
          />
          <PriceBox
            id={`${id}-max`}
            label="Til (kr)"
            placeholder={PRICE_MAX}
            value={draft.maxText}
            disabled={draft.free}
            error={errors.max}
            inputRef={refs.max}
            onChange={(maxText) => onChange({ maxText })}
            onLeave={() => onLeave("max")}
          />
        </div>
      </div>
    </Group>
  );
}

function PriceBox(props: {
  id: string;
  label: string;
  placeholder: number;
  value: string;
  disabled: boolean;
  error: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (text: string) => void;
  onLeave: () => void;
}) {
  const { id, error } = props;
  return (
    <div>
      <Label htmlFor={id}>{props.label}</Label>
      {/* Text, not type=number: the box must see "-50" or "99,999" to say what is wrong with it. */}
      <Input
        ref={props.inputRef}
        id={id}
        inputMode="numeric"
        autoComplete="off"
        placeholder={String(props.placeholder)}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onLeave}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function priceRangeText(low: number, high: number): string {
  if (low <= PRICE_MIN && high >= PRICE_MAX) return "Alle priser";
  const upper = high >= PRICE_MAX ? `${formatKroner(PRICE_MAX)} eller mer` : formatKroner(high);
  return `${formatKroner(low)} – ${upper}`;
}
