import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useLocation, useNavigate } from "react-router-dom";
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
import { HandoverFields } from "../../components/listing-form/HandoverFields";
import { selectPhotos, tooManyPhotosText } from "../../components/listing-form/photoFiles";
import { Button } from "../../components/ui/Button";
import { prepareImageForUpload } from "../../lib/imageScale";
import { toastError, toastSuccess } from "../../lib/toast";
import { listingImageUrl } from "../../lib/images";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { profileQuery } from "../../api/account";
import { DraftOffer } from "./DraftOffer";
import { clearDraft, loadDraft, saveDraft, type ListingDraft } from "./listingDraft";
import { ListingPreview } from "./ListingPreview";
import { PhotoPicker, type ChosenPhoto } from "./PhotoPicker";
import { AttributeFields, attributeFormKeys } from "../../components/listing-form/AttributeFields";

export const STEP_COUNT = 4;
const STEP_TITLES = ["Bilder", "Tittel og beskrivelse", "Kategori, alder og tilstand", "Pris, sted og forhåndsvisning"] as const;
/** The fields each step checks before the next one (docs/product.md "States"). */
const STEP_FIELDS: (keyof ListingFormValues)[][] = [
  [],
  ["title", ...attributeFormKeys(), "description"],
  ["category", "age_range", "condition_rating"],
  [],
];

const NO_PHOTOS = "Du må laste opp minst ett bilde";

type Phase = "idle" | "uploading" | "publishing";

function messageOf(error: unknown): string {
  return isApiError(error) || error instanceof Error ? error.message : "Noe gikk galt. Prøv igjen.";
}

/** The step is part of the address (`?steg=2`), so every step is a history entry: Back goes one step back. */
function stepOf(search: string): number {
  const n = Number(new URLSearchParams(search).get("steg") ?? 1);
  return Number.isInteger(n) && n >= 1 && n <= STEP_COUNT ? n : 1;
}

function stepSearch(step: number): string {
  return step > 1 ? `?steg=${step}` : "";
}

interface WizardLocationState {
  /** This entry was pushed by the wizard's own "Neste", so the previous entry is the previous step. */
  wizardStep?: boolean;
}

let photoCounter = 0;

/** /create-listing: the four-step wizard "Ny annonse" (docs/product.md "Routes", "States", "Validation", "Error messages"). */
export function CreateListingPage() {
  useDocumentTitle("Ny annonse");
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const session = useSession();
  const userId = session.user?.id ?? "";
  const step = stepOf(location.search);
  const [photos, setPhotos] = useState<ChosenPhoto[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [phase, setPhase] = useState<Phase>("idle");
  // A draft from an earlier visit: offered before anything else, and not overwritten until answered.
  const [offeredDraft, setOfferedDraft] = useState<ListingDraft | null>(() => (userId ? loadDraft(userId) : null));
  const busy = phase !== "idle";
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(false);
  /** Uploads in flight, by photo id: each resolves to the key, or null when it failed. */
  const uploads = useRef(new Map<string, Promise<string | null>>());
  const uploadQueue = useRef<Promise<unknown>>(Promise.resolve());

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
  useEffect(() => () => photosRef.current.forEach((p) => p.url.startsWith("blob:") && URL.revokeObjectURL(p.url)), []);

  // Keep the draft on the device as the user goes (text, step and uploaded photos).
  const watched = useWatch({ control: form.control });
  useEffect(() => {
    if (!userId || offeredDraft || phase === "publishing") return;
    const { images: _images, ...values } = watched;
    const uploaded = photos.flatMap((p) => (p.key ? [{ key: p.key, name: p.name }] : []));
    saveDraft(userId, { values: values as ListingDraft["values"], photos: uploaded, step, savedAt: Date.now() });
  }, [watched, photos, step, userId, offeredDraft, phase]);

  // A step may only be shown when the ones before it are done (a reload, a link or Forward).
  useEffect(() => {
    if (offeredDraft) return;
    const values = form.getValues();
    const allowed =
      photos.length === 0
        ? 1
        : (values.title ?? "").trim().length < 3
          ? 2
          : !values.category || !values.age_range || values.condition_rating == null
            ? 3
            : STEP_COUNT;
    if (step > allowed) navigate({ search: stepSearch(allowed) }, { replace: true });
  }, [step, photos.length, offeredDraft, form, navigate]);

  // A new step moves focus to its heading, so keyboard and screen-reader users start at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the step is the trigger; the heading ref is read when it changes
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus({ preventScroll: true });
  }, [step]);
  const goTo = (next: number) => {
    stepChanged.current = true;
    navigate({ search: stepSearch(next) }, { state: { wizardStep: true } satisfies WizardLocationState });
  };
  const back = () => {
    if (step === 1) return navigate("/");
    stepChanged.current = true;
    // The browser's Back and this arrow do the same: one step back.
    if ((location.state as WizardLocationState | null)?.wizardStep) navigate(-1);
    else navigate({ search: stepSearch(step - 1) }, { replace: true });
  };

  const dropPhoto = (id: string) => {
    setPhotos((current) => {
      const gone = current.find((p) => p.id === id);
      if (gone?.url.startsWith("blob:")) URL.revokeObjectURL(gone.url);
      return current.filter((p) => p.id !== id);
    });
  };

  /** Photos upload as soon as they are chosen, so a draft can keep them; one at a time, in order (phone networks). */
  const upload = (photo: ChosenPhoto, file: File) => {
    const done = uploadQueue.current.then(async () => {
      try {
        if (!photosRef.current.some((p) => p.id === photo.id)) return null;
        const { key } = await uploadImage(await prepareImageForUpload(file));
        if (!photosRef.current.some((p) => p.id === photo.id)) {
          // Removed while it uploaded.
          await deleteImagesQuietly([key]);
          return null;
        }
        setPhotos((current) => current.map((p) => (p.id === photo.id ? { ...p, key } : p)));
        return key;
      } catch (error) {
        const index = photosRef.current.findIndex((p) => p.id === photo.id);
        toastError("Feil", `Feil ved opplasting av bilde ${index + 1}: ${messageOf(error)}`, { error });
        dropPhoto(photo.id);
        return null;
      } finally {
        uploads.current.delete(photo.id);
      }
    });
    uploadQueue.current = done;
    uploads.current.set(photo.id, done);
  };

  const addPhotos = (files: File[]) => {
    const { accepted, fileErrors, roomLeft } = selectPhotos(files, photos.length);
    if (fileErrors.length) toastError("Feil med bildefiler", fileErrors.join("\n"));
    if (roomLeft !== null) toastError("For mange bilder", tooManyPhotosText(roomLeft));
    if (accepted.length === 0) return;
    setPhotoError(undefined);
    const added = accepted.map((file) => ({
      photo: { id: `photo-${++photoCounter}`, name: file.name, url: URL.createObjectURL(file) },
      file,
    }));
    setPhotos((current) => [...current, ...added.map((a) => a.photo)]);
    // After the state update, so an upload that finishes at once finds its photo.
    queueMicrotask(() => added.forEach(({ photo, file }) => upload(photo, file)));
  };
  const removePhoto = (id: string) => {
    const key = photos.find((p) => p.id === id)?.key;
    dropPhoto(id);
    if (key) void deleteImagesQuietly([key]);
  };

  const continueDraft = (draft: ListingDraft) => {
    form.reset({ ...emptyListingForm(profilePostalCode ?? ""), ...draft.values });
    setPhotos(draft.photos.map((p) => ({ id: `photo-${++photoCounter}`, name: p.name, url: listingImageUrl(p.key), key: p.key })));
    setOfferedDraft(null);
    navigate({ search: stepSearch(draft.step) }, { replace: true });
  };
  const discardDraft = (draft: ListingDraft) => {
    void deleteImagesQuietly(draft.photos.map((p) => p.key));
    clearDraft(userId);
    setOfferedDraft(null);
    if (step !== 1) navigate({ search: "" }, { replace: true });
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

  const publish = async (values: ListingForm) => {
    const chosen = photosRef.current;
    if (chosen.length === 0) {
      setPhotoError(NO_PHOTOS);
      toastError("Feil", NO_PHOTOS);
      goTo(1);
      return;
    }
    let keys = chosen.map((p) => p.key ?? null);
    if (keys.some((k) => k === null)) {
      // Photos still on their way up: "Laster opp bilder..." until they are there.
      setPhase("uploading");
      keys = await Promise.all(chosen.map((p) => (p.key ? Promise.resolve(p.key) : (uploads.current.get(p.id) ?? Promise.resolve(null)))));
      if (keys.some((k) => k === null)) {
        setPhase("idle");
        return;
      }
      toastSuccess("Bilder lastet opp");
    }
    setPhase("publishing");
    try {
      await createListing({ ...values, images: keys as string[] });
    } catch (error) {
      // The photos stay uploaded and in the draft: the user can try again.
      console.warn("Publishing the listing failed", error);
      toastError("Feil", "Kunne ikke publisere annonsen. Prøv igjen.", { error });
      setPhase("idle");
      return;
    }
    clearDraft(userId);
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

  if (offeredDraft)
    return <DraftOffer draft={offeredDraft} onContinue={() => continueDraft(offeredDraft)} onDiscard={() => discardDraft(offeredDraft)} />;

  const submitLabel =
    phase === "uploading" ? "Laster opp bilder..." : phase === "publishing" ? "Publiserer annonse..." : "Publiser annonse";

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

      {/* Product text: "Steg N av 4". */}
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

            {step === 1 ? (
              <PhotoPicker photos={photos} onAdd={addPhotos} onRemove={removePhoto} disabled={busy} error={photoError} />
            ) : null}
            {step === 2 ? (
              <div className="space-y-5">
                <TitleField />
                <AttributeFields />
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
                <HandoverFields />
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
