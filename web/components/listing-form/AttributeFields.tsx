// The listing's declared fields (domain/listing-fields.ts) in the create wizard and the edit form:
// each a one-line text box that offers its suggestions as the seller types (a datalist, so any
// other text is fine too). The rules are the form schema's (domain/schemas/listing.ts).
import { useId } from "react";
import { useFormContext } from "react-hook-form";
import { listingAttributes, type ListingAttribute } from "../../../domain/listing-fields";
import { TextField } from "../ui/TextField";
import type { ListingFormInput as ListingFormValues } from "../../../domain/schemas/listing";

/** The form's keys of the declared fields (for the wizard's step check). */
export const attributeFormKeys = (): (keyof ListingFormValues)[] => listingAttributes().map((a) => a.key as keyof ListingFormValues);

/** An empty value for each declared field. */
export const emptyAttributeValues = (): Partial<ListingFormValues> => Object.fromEntries(listingAttributes().map((a) => [a.key, ""]));

function AttributeField({ attribute }: { attribute: ListingAttribute }) {
  const listId = useId();
  const {
    register,
    formState: { errors },
  } = useFormContext<ListingFormValues>();
  const key = attribute.key as keyof ListingFormValues;
  return (
    <div>
      <TextField
        label={`${attribute.label} (valgfritt)`}
        placeholder={attribute.placeholder}
        autoComplete="off"
        maxLength={attribute.maxLength}
        list={listId}
        className="max-w-80"
        error={errors[key]?.message}
        {...register(key)}
      />
      <datalist id={listId}>
        {attribute.suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </div>
  );
}

export function AttributeFields() {
  return listingAttributes().map((a) => <AttributeField key={a.key} attribute={a} />);
}
