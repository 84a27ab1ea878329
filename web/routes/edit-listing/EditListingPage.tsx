import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useNavigate, useParams } from "react-router-dom";
import { MAX_IMAGES_PER_LISTING } from "../../../domain/limits";
import { listingFormSchema, type ListingForm } from "../../../domain/schemas/listing";
import { ownListingQuery, type OwnListing } from "../../api/account";
import { isApiError } from "../../api/client";
import { deleteImage, deleteImagesQuietly, invalidateListingViews, updateListing, uploadImage } from "../../api/listings";
import {
  AgeRangeField,
  CategoryField,
  ConditionField,
  DescriptionField,
  PostalCodeField,
  PriceFields,
  TitleField,
  type ListingFormValues,
} from "../../components/listing-form/ListingFields";
import { PaymentFields } from "../../components/listing-form/PaymentFields";
import { HandoverFields } from "../../components/listing-form/HandoverFields";
import { BackLink } from "../../components/BackLink";
import { tooManyPhotosText } from "../../components/listing-form/photoFiles";
import { Button } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { prepareImageForUpload } from "../../lib/imageScale";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { EditPhotos } from "./EditPhotos";
import { AttributeFields } from "../../components/listing-form/AttributeFields";
import { attributeValues } from "../../../domain/listing-fields";

export const NO_ACCESS_TEXT = "Annonsen ble ikke funnet eller du har ikke tilgang til den.";
const NO_PHOTOS = "Du må laste opp minst ett bilde";

/** /edit-listing/:listingId "Rediger annonse" (docs/product.md "Edit a listing"): only the owner can load it. */
export function EditListingPage() {
  useDocumentTitle("Rediger annonse");
  const { listingId = "" } = useParams();
  const navigate = useNavigate();
  const { data, error } = useQuery(ownListingQuery(listingId));

  useEffect(() => {
    if (!error) return;
    const denied = isApiError(error) && (error.status === 403 || error.status === 404);
    toastError("Kunne ikke hente annonse", denied ? NO_ACCESS_TEXT : error.message, { id: "edit-listing-load", error });
    navigate("/profile", { replace: true });
  }, [error, navigate]);

  if (error) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-stone-900">Rediger annonse</h1>
        <p className="mt-3 text-stone-700">{NO_ACCESS_TEXT}</p>
      </section>
    );
  }
  if (!data) return <PageSpinner label="Laster annonse..." />;
  return <EditListingForm listing={data} />;
}

function formValuesOf(listing: OwnListing): ListingFormValues {
  return {
    title: listing.title,
    description: listing.description ?? "",
    category: listing.category,
    age_range: listing.age_range,
    condition_rating: String(listing.condition_rating),
    price: listing.is_free || listing.price == null ? "" : String(listing.price),
    is_free: listing.is_free,
    is_trade_offer: listing.is_trade_offer,
    postal_code: listing.postal_code,
    images: listing.images,
    payment_enabled: listing.payment_enabled,
    pricing_mode: listing.pricing_mode === "standard" ? "marketplace" : listing.pricing_mode,
    handover: listing.handover,
    parcel_size: listing.parcel_size,
    ...Object.fromEntries(Object.entries(attributeValues(listing)).map(([key, value]) => [key, value ?? ""])),
  };
}

export function EditListingForm({ listing }: { listing: OwnListing }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<ListingFormValues, unknown, ListingForm>({
    resolver: zodResolver(listingFormSchema),
    defaultValues: formValuesOf(listing),
  });
  const images = useWatch({ control: form.control, name: "images" }) ?? [];
  const [uploading, setUploading] = useState(0);
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  // Why the server refused the edit (409: the listing is held by a trade or the give-away queue,
  // decision 086), shown beside the button until the next try.
  const [refusal, setRefusal] = useState<string | null>(null);

  // Photos uploaded during this visit and not saved yet: removing one deletes it at once, and
  // leaving without saving deletes them all (the saved listing never referenced them).
  const unsaved = useRef(new Set<string>());
  const saved = useRef(false);
  useEffect(
    () => () => {
      if (!saved.current && unsaved.current.size > 0) void deleteImagesQuietly([...unsaved.current]);
    },
    [],
  );

  const setImages = (next: string[]) => {
    form.setValue("images", next, { shouldDirty: true });
    if (next.length > 0) form.clearErrors("images");
  };

  const addPhotos = async (files: File[]) => {
    const room = MAX_IMAGES_PER_LISTING - (form.getValues("images")?.length ?? 0) - uploading;
    if (files.length > room) toastError("For mange bilder", tooManyPhotosText(Math.max(0, room)));
    const chosen = files.slice(0, Math.max(0, room));
    if (chosen.length === 0) return;
    setUploading((n) => n + chosen.length);
    let added = 0;
    let failure: { text: string; error: unknown } | null = null;
    // One after the other, so the photos keep the order they were chosen in.
    for (const file of chosen) {
      try {
        const { key } = await uploadImage(await prepareImageForUpload(file));
        unsaved.current.add(key);
        setImages([...(form.getValues("images") ?? []), key]);
        added++;
      } catch (error) {
        failure = { text: isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", error };
      } finally {
        setUploading((n) => n - 1);
      }
    }
    if (added > 0) toastSuccess("Bilder lagt til");
    if (failure) toastError("Feil", `Kunne ikke laste opp bilde: ${failure.text}`, { error: failure.error });
  };

  const removePhoto = async (key: string) => {
    const without = () => (form.getValues("images") ?? []).filter((k) => k !== key);
    if (!unsaved.current.has(key)) {
      // A saved photo: the server deletes it when the listing is saved without it.
      setImages(without());
      toastSuccess("Bilde fjernet", "Endringen lagres når du oppdaterer annonsen.");
      return;
    }
    setRemoving((s) => new Set(s).add(key));
    try {
      await deleteImage(key);
      unsaved.current.delete(key);
      setImages(without());
      toastSuccess("Bilde fjernet");
    } catch (error) {
      toastError("Feil", "Kunne ikke fjerne bilde", { error });
    } finally {
      setRemoving((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    }
  };

  const onValid = async (values: ListingForm) => {
    if (values.images.length === 0) {
      form.setError("images", { message: NO_PHOTOS });
      toastError("Feil", NO_PHOTOS);
      return;
    }
    setSaving(true);
    setRefusal(null);
    try {
      await updateListing(listing.id, values);
    } catch (error) {
      if (isApiError(error) && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          form.setError(field as keyof ListingFormValues, { message });
        }
      }
      if (isApiError(error) && error.status === 409) setRefusal(error.message);
      toastError("Feil", "Kunne ikke oppdatere annonse", { error });
      setSaving(false);
      return;
    }
    saved.current = true;
    unsaved.current.clear();
    await invalidateListingViews(queryClient);
    toastSuccess("Annonse oppdatert!");
    navigate("/profile");
  };

  const busy = saving || uploading > 0 || removing.size > 0;

  return (
    <div className="mx-auto max-w-2xl px-4 py-4 sm:py-8">
      <div className="flex items-center gap-2">
        <BackLink to="/profile" label="Tilbake til profilen" className="-ml-2" />
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">Rediger annonse</h1>
      </div>

      <FormProvider {...form}>
        <form onSubmit={form.handleSubmit(onValid)} noValidate className="mt-6 space-y-6">
          <EditPhotos
            images={images}
            removing={removing}
            uploading={uploading}
            onAdd={(files) => void addPhotos(files)}
            onRemove={(key) => void removePhoto(key)}
            error={form.formState.errors.images?.message}
          />
          <fieldset disabled={saving} className="min-w-0 space-y-6 border-0 p-0">
            <TitleField />
            <AttributeFields />
            <DescriptionField />
            <CategoryField />
            <AgeRangeField />
            <ConditionField />
            <PriceFields />
            <PaymentFields />
            <PostalCodeField />
            <HandoverFields />
          </fieldset>
          {refusal && (
            <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
              {refusal}
            </p>
          )}
          <Button type="submit" size="lg" disabled={busy} aria-busy={saving || undefined} className="w-full">
            {saving ? "Oppdaterer annonse..." : "Oppdater annonse"}
          </Button>
        </form>
      </FormProvider>
    </div>
  );
}
