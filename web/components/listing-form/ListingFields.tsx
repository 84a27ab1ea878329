// Form fields shared by the create wizard and the edit form. They read the form from
// react-hook-form's context; the schema is domain's listingFormSchema (one rule, written once).
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from "../../../domain/limits";
import type { ListingFormInput } from "../../../domain/schemas/listing";
import { AGE_RANGES, CATEGORIES, CONDITIONS } from "../../../domain/taxonomy";
import { cn } from "../../lib/cn";
import { Label } from "../ui/Label";
import { TextField } from "../ui/TextField";
import { emptyAttributeValues } from "./AttributeFields";

export type ListingFormValues = ListingFormInput;

/** Empty values for a new listing (condition unset until chosen). */
export function emptyListingForm(postalCode = ""): ListingFormValues {
  return {
    title: "",
    description: "",
    category: "",
    age_range: "",
    condition_rating: undefined,
    price: "",
    is_free: false,
    is_trade_offer: false,
    postal_code: postalCode,
    images: [],
    // Most toys are picked up; the seller ticks "Kan sendes" and a size to send one.
    handover: ["in_person"],
    parcel_size: null,
    // Used only when the seller can take payments (PaymentFields); the server decides.
    payment_enabled: true,
    pricing_mode: "marketplace",
    ...emptyAttributeValues(),
  };
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

export function TitleField() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (
    <TextField
      label="Tittel"
      placeholder="F.eks. Lego Duplo brannstasjon"
      autoComplete="off"
      maxLength={TITLE_MAX_LENGTH}
      error={errors.title?.message}
      {...register("title")}
    />
  );
}

export function DescriptionField() {
  const id = useId();
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  const error = errors.description?.message;
  return (
    <div>
      <Label htmlFor={id}>Beskrivelse (valgfritt)</Label>
      <textarea
        id={id}
        rows={6}
        maxLength={DESCRIPTION_MAX_LENGTH}
        placeholder="Fortell om leken: hva følger med, hvor mye den er brukt, eventuelle feil."
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-full rounded-xl border border-stone-500 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700 aria-invalid:border-red-700"
        {...register("description")}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A group of radio "chips" with a legend and an error tied to the group. */
export function ChoiceGroup({
  legend,
  error,
  children,
  className,
}: {
  legend: string;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-stone-800">{legend}</legend>
      <div className={className}>{children}</div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

export const chipInput = "peer sr-only";
export const chipBox = cn(
  "flex h-full cursor-pointer items-center rounded-xl border border-stone-400 bg-white px-3 py-2 text-stone-900",
  "peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:ring-2 peer-checked:ring-brand-700",
  "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 hover:border-brand-700",
);

export function CategoryField() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (
    <ChoiceGroup legend="Kategori" error={errors.category?.message} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {CATEGORIES.map((c) => (
        <label key={c.key} className="min-h-11">
          <input type="radio" value={c.key} className={chipInput} {...register("category")} />
          <span className={cn(chipBox, "min-h-11 font-medium")}>{c.label}</span>
        </label>
      ))}
    </ChoiceGroup>
  );
}

export function AgeRangeField() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (
    <ChoiceGroup legend="Aldersgruppe" error={errors.age_range?.message} className="flex flex-wrap gap-2">
      {AGE_RANGES.map((age) => (
        <label key={age} className="min-h-11">
          <input type="radio" value={age} className={chipInput} {...register("age_range")} />
          <span className={cn(chipBox, "min-h-11 justify-center font-medium whitespace-nowrap")}>{age}</span>
        </label>
      ))}
    </ChoiceGroup>
  );
}

export function ConditionField() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (
    <ChoiceGroup legend="Tilstand" error={errors.condition_rating?.message} className="grid gap-2 sm:grid-cols-2">
      {CONDITIONS.map((c) => (
        <label key={c.rating}>
          <input type="radio" value={String(c.rating)} className={chipInput} {...register("condition_rating")} />
          <span className={cn(chipBox, "flex-col items-start")}>
            <span className="font-semibold">{c.label}</span> <span className="text-sm text-stone-700">{c.description}</span>
          </span>
        </label>
      ))}
    </ChoiceGroup>
  );
}

function Checkbox({
  label,
  hint,
  ...props
}: { label: string; hint?: string; ref?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-6 shrink-0 accent-brand-700"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...props}
      />
      <div>
        <label htmlFor={id} className="font-medium text-stone-900">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-stone-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * "Gi bort" and "Åpen for bytte", and the price, which is hidden and cleared while "Gi bort" is
 * ticked (docs/product.md "Validation": free is stored as null).
 */
export function PriceFields() {
  const {
    register,
    setValue,
    control,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  const isFree = useWatch({ control, name: "is_free" });
  const free = register("is_free");
  return (
    <div className="space-y-4">
      <Checkbox
        label="Gi bort"
        hint="Leken gis bort gratis."
        {...free}
        onChange={(event) => {
          if (event.target.checked) setValue("price", "", { shouldValidate: false });
          return free.onChange(event);
        }}
      />
      <Checkbox label="Åpen for bytte" hint="Andre kan foreslå å bytte med en av sine leker." {...register("is_trade_offer")} />
      {isFree ? null : (
        <TextField
          label="Pris (kr)"
          inputMode="numeric"
          autoComplete="off"
          placeholder="0"
          className="max-w-60"
          hint="Hele kroner. Tomt felt betyr 0 kr."
          error={errors.price?.message}
          {...register("price")}
        />
      )}
    </div>
  );
}

export function PostalCodeField() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  return (
    <TextField
      label="Postnummer"
      inputMode="numeric"
      autoComplete="postal-code"
      maxLength={4}
      placeholder="0150"
      className="max-w-40"
      error={errors.postal_code?.message}
      {...register("postal_code")}
    />
  );
}
