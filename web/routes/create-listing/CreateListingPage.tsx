import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { listingFormSchema, type ListingForm } from "../../../domain/schemas/listing";
import { isApiError } from "../../api/client";
import { createListing, deleteImagesQuietly, invalidateListingViews, uploadImage } from "../../api/listings";
import {
  AgeRangeField,
  CategoryField,
  ConditionField,
  DescriptionField,
  emptyListingForm,
  PostalCodeField,
  PriceFields,
  TitleField,
  type ListingFormValues,
} from "../../components/listing-form/ListingFields";
import { PaymentFields } from "../../components/listing-form/PaymentFields";
import { selectPhotos, tooManyPhotosText } from "../../components/listing-form/photoFiles";
import { Button } from "../../components/ui/Button";
import { prepareImageForUpload } from "../../lib/imageScale";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { profileQuery } from "../profile/profileApi";
import { ListingPreview } from "./ListingPreview";
import { PhotoPicker, type ChosenPhoto } from "./PhotoPicker";

export const STEP_COUNT = 4;
const STEP_TITLES = ["Bilder", "Tittel og beskrivelse", "Kategori, alder og tilstand", "Pris, sted og forhåndsvisning"] as const;
/** The fields each step checks before the next one (spec part 1 §4 "Create wizard"). */
const STEP_FIELDS: (keyof ListingFormValues)[][] = [[], ["title", "description"], ["category", "age_range", "condition_rating"], []];

const NO_PHOTOS = "Du må laste opp minst ett bilde";

type Phase = "idle" | "uploading" | "publishing";

function messageOf(error: unknown): string {
  return isApiError(error) || error instanceof Error ? error.message : "Noe gikk galt. Prøv igjen.";
}

let photoCounter = 0;

/** /create-listing: the four-step wizard "Ny annonse" (spec part 1 §2, §4, §5, §8). */
export function CreateListingPage() {
  useDocumentTitle("Ny annonse");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState(1);
  const [photos, setPhotos] = useState<ChosenPhoto[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [phase, setPhase] = useState<Phase>("idle");
  const busy = phase !== "idle";
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(false);

  const form = useForm<ListingFormValues, unknown, ListingForm>({
    resolver: zodResolver(listingFormSchema),
    defaultValues: emptyListingForm(),
  });

  // Start from the postal code in the user's profile, unless they typed one already.
  const profile = useQuery(profileQuery());
  const profilePostalCode = profile.data?.postal_code;
  useEffect(() => {
    if (profilePostalCode && !form.getValues("postal_code")) form.setValue("postal_code", profilePostalCode);
  }, [profilePostalCode, form]);

  // Object URLs live as long as their photo; free the rest when the wizard closes.
  const photosRef = useRef(photos);
  photosRef.current = photos;
  useEffect(() => () => photosRef.current.forEach((p) => URL.revokeObjectURL(p.url)), []);

  // A new step moves focus to its heading, so keyboard and screen-reader users start at the top.
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus();
    window.scrollTo({ top: 0 });
  }, [step]);
  const goTo = (next: number) => {
    stepChanged.current = true;
    setStep(next);
  };

  const addPhotos = (files: File[]) => {
    const { accepted, fileErrors, roomLeft } = selectPhotos(files, photos.length);
    if (fileErrors.length) toastError("Feil med bildefiler", fileErrors.join("\n"));
    if (roomLeft !== null) toastError("For mange bilder", tooManyPhotosText(roomLeft));
    if (accepted.length === 0) return;
    setPhotoError(undefined);
    setPhotos((current) => [...current, ...accepted.map((file) => ({ id: `photo-${++photoCounter}`, file, url: URL.createObjectURL(file) }))]);
  };
  const removePhoto = (id: string) => {
    setPhotos((current) => {
      const gone = current.find((p) => p.id === id);
      if (gone) URL.revokeObjectURL(gone.url);
      return current.filter((p) => p.id !== id);
    });
  };

  const next = async () => {
    if (step === 1) {
      if (photos.length === 0) {
        setPhotoError(NO_PHOTOS);
        toastError("Feil", NO_PHOTOS);
        return;
      }
    } else {
      const ok = await form.trigger(STEP_FIELDS[step - 1], { shouldFocus: true });
      if (!ok) return;
    }
    goTo(step + 1);
  };
  const back = () => (step > 1 ? goTo(step - 1) : navigate("/"));

  const publish = async (values: ListingForm) => {
    if (photos.length === 0) {
      setPhotoError(NO_PHOTOS);
      toastError("Feil", NO_PHOTOS);
      goTo(1);
      return;
    }
    setPhase("uploading");
    const keys: string[] = [];
    for (const [index, photo] of photos.entries()) {
      try {
        const image = await prepareImageForUpload(photo.file);
        keys.push((await uploadImage(image)).key);
      } catch (error) {
        toastError("Feil", `Feil ved opplasting av bilde ${index + 1}: ${messageOf(error)}`);
        await deleteImagesQuietly(keys);
        setPhase("idle");
        return;
      }
    }
    toastSuccess("Bilder lastet opp");
    setPhase("publishing");
    try {
      await createListing({ ...values, images: keys });
    } catch (error) {
      console.warn("Publishing the listing failed", error);
      toastError("Feil", "Kunne ikke publisere annonsen. Prøv igjen.");
      await deleteImagesQuietly(keys);
      setPhase("idle");
      return;
    }
    void invalidateListingViews(queryClient);
    toastSuccess("Suksess!", "Annonsen din er publisert");
    navigate("/");
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // Enter in a field on steps 1-3 means "Neste", not "Publiser".
    if (step < STEP_COUNT) void next();
    else void form.handleSubmit(publish)(event);
  };

  const submitLabel = phase === "uploading" ? "Laster opp bilder..." : phase === "publishing" ? "Publiserer annonse..." : "Publiser annonse";

  return (
    <div className="mx-auto max-w-2xl px-4 py-4 sm:py-8">
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={back}
          disabled={busy}
          aria-label={step > 1 ? "Tilbake til forrige steg" : "Tilbake til forsiden"}
          className="-ml-2 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100 disabled:opacity-50"
        >
          <ArrowLeft aria-hidden="true" className="size-6" />
        </button>
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">Ny annonse</h1>
      </div>

      {/* Spec text: "Steg N av 4". */}
      <p className="mt-3 text-sm font-semibold text-stone-700">
        Steg {step} av {STEP_COUNT}
      </p>
      <div
        role="progressbar"
        aria-label="Fremdrift"
        aria-valuemin={1}
        aria-valuemax={STEP_COUNT}
        aria-valuenow={step}
        aria-valuetext={`Steg ${step} av ${STEP_COUNT}`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${(step / STEP_COUNT) * 100}%` }} />
      </div>

      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate className="mt-6">
          <fieldset disabled={busy} className="min-w-0 border-0 p-0">
            <h2 ref={headingRef} tabIndex={-1} className="mb-4 text-xl font-bold text-stone-900 focus:outline-none">
              {STEP_TITLES[step - 1]}
            </h2>

            {step === 1 ? <PhotoPicker photos={photos} onAdd={addPhotos} onRemove={removePhoto} disabled={busy} error={photoError} /> : null}
            {step === 2 ? (
              <div className="space-y-5">
                <TitleField />
                <DescriptionField />
              </div>
            ) : null}
            {step === 3 ? (
              <div className="space-y-6">
                <CategoryField />
                <AgeRangeField />
                <ConditionField />
              </div>
            ) : null}
            {step === 4 ? (
              <div className="space-y-6">
                <PriceFields />
                <PaymentFields />
                <PostalCodeField />
                <ListingPreview photo={photos[0]?.url} />
              </div>
            ) : null}
          </fieldset>

          <div className="mt-8 flex gap-3">
            {step > 1 ? (
              <Button variant="secondary" onClick={back} disabled={busy} className="flex-1 sm:flex-none">
                Tilbake
              </Button>
            ) : null}
            <Button type="submit" disabled={busy} aria-busy={busy || undefined} className="flex-1">
              {step < STEP_COUNT ? "Neste" : submitLabel}
            </Button>
          </div>
        </form>
      </FormProvider>
    </div>
  );
}
