import { useState } from "react";
import { problemPhotoAlt } from "../../domain/order-texts";
import { Modal } from "./Modal";

/**
 * The photos of a buyer's problem report (decision 108): thumbnails that open the photo larger, in
 * the parties' order card and the moderators' case. The photos are private (served only to the
 * parties and staff, never cached), so each is simply read from its own address.
 */
export function ProblemPhotos({ photos, className }: { photos: readonly { id: string; url: string }[]; className?: string }) {
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const shown = open === null ? null : photos[open];
  return (
    <div className={className}>
      <ul aria-label="Bilder fra kjøperen" className="flex flex-wrap gap-2">
        {photos.map((photo, index) => (
          <li key={photo.id}>
            <button
              type="button"
              onClick={() => setOpen(index)}
              aria-label={`Vis ${problemPhotoAlt(index, photos.length).toLowerCase()} større`}
              className="block size-16 overflow-hidden rounded-lg border border-stone-300 bg-stone-100 hover:border-brand-700"
            >
              <img src={photo.url} alt={problemPhotoAlt(index, photos.length)} loading="lazy" className="size-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      <Modal
        open={shown !== null}
        onOpenChange={(next) => {
          if (!next) setOpen(null);
        }}
        title={open === null ? "Bilde" : problemPhotoAlt(open, photos.length)}
      >
        {shown ? (
          <img
            src={shown.url}
            alt={problemPhotoAlt(open!, photos.length)}
            className="mt-3 max-h-[70dvh] w-full rounded-xl object-contain"
          />
        ) : null}
      </Modal>
    </div>
  );
}
