import { ImagePlus, LoaderCircle, X } from "lucide-react";
import { useId, type ChangeEvent } from "react";
import { MAX_IMAGES_PER_LISTING } from "../../../domain/limits";
import { PHOTO_ACCEPT } from "../../components/listing-form/photoFiles";
import { cn } from "../../lib/cn";
import { listingImageUrl } from "../../lib/images";

export interface EditPhotosProps {
  images: string[];
  /** Keys being removed right now (their buttons are busy). */
  removing: ReadonlySet<string>;
  uploading: number;
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  error?: string;
}

/** "Bilder (n/5)": the listing's photos with remove buttons and an add tile while there is room. */
export function EditPhotos({ images, removing, uploading, onAdd, onRemove, error }: EditPhotosProps) {
  const inputId = useId();
  const headingId = useId();
  const errorId = useId();
  const room = MAX_IMAGES_PER_LISTING - images.length - uploading;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (files.length) onAdd(files);
  };

  return (
    <section aria-labelledby={headingId} aria-describedby={error ? errorId : undefined}>
      <h2 id={headingId} className="mb-2 text-sm font-medium text-stone-800">
        Bilder ({images.length}/{MAX_IMAGES_PER_LISTING})
      </h2>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
        {images.map((key, index) => (
          <li key={key} className="relative aspect-square overflow-hidden rounded-xl border border-stone-200 bg-stone-100">
            <img src={listingImageUrl(key)} alt={`Bilde ${index + 1}`} className="size-full object-cover" />
            {index === 0 ? (
              <span className="absolute bottom-1 left-1 rounded-full bg-stone-900/80 px-2 py-0.5 text-xs font-semibold text-white">
                Hovedbilde
              </span>
            ) : null}
            <button
              type="button"
              onClick={() => onRemove(key)}
              disabled={removing.has(key)}
              aria-label={`Fjern bilde ${index + 1}`}
              className="absolute top-1 right-1 inline-flex size-9 items-center justify-center rounded-full bg-white/95 text-stone-900 shadow hover:text-red-700 disabled:opacity-60"
            >
              {removing.has(key) ? (
                <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
              ) : (
                <X aria-hidden="true" className="size-5" />
              )}
            </button>
          </li>
        ))}
        {Array.from({ length: uploading }, (_, i) => (
          <li
            key={`uploading-${i}`}
            className="flex aspect-square items-center justify-center rounded-xl border border-stone-200 bg-stone-50"
          >
            <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-brand-700" />
            <span className="sr-only">Laster opp bilde</span>
          </li>
        ))}
        {room > 0 ? (
          <li className="aspect-square">
            <input id={inputId} type="file" accept={PHOTO_ACCEPT} multiple onChange={onChange} className="peer sr-only" />
            <label
              htmlFor={inputId}
              className={cn(
                "flex size-full cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed border-stone-400 bg-white text-sm font-semibold text-brand-800 hover:bg-brand-50",
                "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
              )}
            >
              <ImagePlus aria-hidden="true" className="size-7" />
              Legg til bilder
            </label>
          </li>
        ) : null}
      </ul>
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}
