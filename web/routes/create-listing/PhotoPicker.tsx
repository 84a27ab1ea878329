import { ImagePlus, X } from "lucide-react";
import { useId, useState, type ChangeEvent, type DragEvent } from "react";
import { MAX_IMAGES_PER_LISTING } from "../../../domain/limits";
import { PHOTO_ACCEPT } from "../../components/listing-form/photoFiles";
import { cn } from "../../lib/cn";

export interface ChosenPhoto {
  id: string;
  /** The file's name, for the thumbnail's text. */
  name: string;
  /** Object URL of the chosen file (revoked when removed or when the wizard closes), or the uploaded photo's URL. */
  url: string;
  /** Set once uploaded: the key the listing will reference (and the draft keeps). */
  key?: string;
}

export interface PhotoPickerProps {
  photos: ChosenPhoto[];
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  disabled?: boolean;
  error?: string;
}

/** Step 1: choose up to five photos (button or drag and drop), with thumbnails and remove buttons. */
export function PhotoPicker({ photos, onAdd, onRemove, disabled, error }: PhotoPickerProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [dragging, setDragging] = useState(false);
  const full = photos.length >= MAX_IMAGES_PER_LISTING;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Clear, so choosing the same file again after removing it fires a change.
    event.target.value = "";
    if (files.length) onAdd(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled || full) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length) onAdd(files);
  };

  return (
    <div>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled && !full) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "rounded-2xl border-2 border-dashed p-4 text-center transition-colors",
          dragging ? "border-brand-700 bg-brand-50" : "border-stone-300 bg-white",
        )}
      >
        <input
          id={inputId}
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          disabled={disabled || full}
          onChange={onChange}
          aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(" ")}
          className="peer sr-only"
        />
        <label
          htmlFor={inputId}
          className={cn(
            "mx-auto flex min-h-32 max-w-sm flex-col items-center justify-center gap-2 rounded-xl px-4 py-6",
            "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
            disabled || full ? "cursor-not-allowed text-stone-500" : "cursor-pointer text-brand-800 hover:bg-brand-50",
          )}
        >
          <ImagePlus aria-hidden="true" className="size-10" />
          <span className="text-lg font-semibold">{full ? "Du har valgt fem bilder" : "Velg bilder"}</span>
        </label>
        <p id={hintId} className="text-sm text-stone-700">
          Opptil {MAX_IMAGES_PER_LISTING} bilder, JPEG, PNG eller WebP, maks 5 MB per bilde. Det første bildet blir hovedbildet.
        </p>
      </div>
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}

      {photos.length > 0 ? (
        <ul
          aria-label={`Valgte bilder (${photos.length} av ${MAX_IMAGES_PER_LISTING})`}
          className="mt-4 grid grid-cols-3 gap-2 sm:grid-cols-5"
        >
          {photos.map((photo, index) => (
            <li key={photo.id} className="relative aspect-square overflow-hidden rounded-xl border border-stone-200 bg-stone-100">
              <img src={photo.url} alt={`Bilde ${index + 1}: ${photo.name}`} className="size-full object-cover" />
              {photo.key ? null : (
                <span className="absolute inset-x-0 top-0 bg-stone-900/70 px-2 py-0.5 text-center text-xs font-semibold text-white">
                  Laster opp...
                </span>
              )}
              {index === 0 ? (
                <span className="absolute bottom-1 left-1 rounded-full bg-stone-900/80 px-2 py-0.5 text-xs font-semibold text-white">
                  Hovedbilde
                </span>
              ) : null}
              <button
                type="button"
                onClick={() => onRemove(photo.id)}
                disabled={disabled}
                aria-label={`Fjern bilde ${index + 1}`}
                className="absolute top-1 right-1 inline-flex size-9 items-center justify-center rounded-full bg-white/95 text-stone-900 shadow hover:text-red-700 disabled:opacity-60"
              >
                <X aria-hidden="true" className="size-5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
