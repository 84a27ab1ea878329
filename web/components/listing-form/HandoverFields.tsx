// How the toy can change hands (decision 148): "Hentes" and/or "Kan sendes", and with "Kan sendes"
// the parcel size the seller promises, each with its measures and weight. The rules and words are
// domain/carriers.ts's; the form schema refuses no way at all and "Kan sendes" without a size.
import { useFormContext, useWatch } from "react-hook-form";
import { HANDOVER_MODES, PARCEL_SIZES, parcelSizeHint } from "../../../domain/carriers";
import { HANDOVER_LISTING_LABELS, PARCEL_SIZE_LABELS } from "../../../domain/taxonomy";
import { cn } from "../../lib/cn";
import { ChoiceGroup, chipBox, chipInput, type ListingFormValues } from "./ListingFields";

export function HandoverFields() {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  const handover = useWatch({ control, name: "handover" });
  const ships = Array.isArray(handover) && handover.includes("shipping");
  return (
    <div className="space-y-4">
      <ChoiceGroup legend="Hvordan kan kjøperen få leken?" error={errors.handover?.message} className="grid grid-cols-2 gap-2">
        {HANDOVER_MODES.map((mode) => (
          <label key={mode} className="min-h-11">
            <input type="checkbox" value={mode} className={chipInput} {...register("handover")} />
            <span className={cn(chipBox, "min-h-11 justify-center font-medium")}>{HANDOVER_LISTING_LABELS[mode]}</span>
          </label>
        ))}
      </ChoiceGroup>
      {ships ? (
        <ChoiceGroup legend="Pakkestørrelse" error={errors.parcel_size?.message} className="grid gap-2 sm:grid-cols-3">
          {PARCEL_SIZES.map((size) => (
            <label key={size}>
              <input type="radio" value={size} className={chipInput} {...register("parcel_size")} />
              <span className={cn(chipBox, "flex-col items-start")}>
                <span className="font-semibold">{PARCEL_SIZE_LABELS[size]}</span>{" "}
                <span className="text-sm text-stone-700">{parcelSizeHint(size)}</span>
              </span>
            </label>
          ))}
        </ChoiceGroup>
      ) : null}
    </div>
  );
}
