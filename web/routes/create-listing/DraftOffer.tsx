import { FileClock } from "lucide-react";
import { relativeTime } from "../../../domain/format";
import { Button } from "../../components/ui/Button";
import { listingImageUrl } from "../../lib/images";
import type { ListingDraft } from "./listingDraft";

export interface DraftOfferProps {
  draft: ListingDraft;
  onContinue: () => void;
  onDiscard: () => void;
}

/** Shown instead of an empty wizard when a half-filled one was left: continue it or throw it away. */
export function DraftOffer({ draft, onContinue, onDiscard }: DraftOfferProps) {
  const title = draft.values.title?.trim();
  const count = draft.photos.length;
  const photosText = count === 0 ? "ingen bilder" : count === 1 ? "1 bilde" : `${count} bilder`;
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">Ny annonse</h1>
      <section aria-labelledby="draft-heading" className="mt-5 rounded-2xl border border-brand-200 bg-brand-50 p-5">
        <div className="flex items-start gap-3">
          <FileClock aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-800" />
          <div className="min-w-0">
            <h2 id="draft-heading" className="text-lg font-bold text-stone-900">
              Vil du fortsette på utkastet ditt?
            </h2>
            <p className="mt-1 text-stone-800">
              Du begynte på en annonse {relativeTime(new Date(draft.savedAt).toISOString()).toLowerCase()}
              {title ? (
                <>
                  : <strong className="break-words">{title}</strong>
                </>
              ) : null}{" "}
              ({photosText}). Den er lagret på denne enheten til du publiserer eller forkaster den.
            </p>
          </div>
        </div>
        {count > 0 ? (
          <ul aria-label="Bilder i utkastet" className="mt-4 flex gap-2 overflow-x-auto">
            {draft.photos.map((photo, index) => (
              <li key={photo.key} className="size-16 shrink-0 overflow-hidden rounded-lg border border-stone-200 bg-stone-100">
                <img src={listingImageUrl(photo.key)} alt={`Bilde ${index + 1}: ${photo.name}`} className="size-full object-cover" />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-5 flex flex-col gap-2 sm:flex-row">
          <Button onClick={onContinue} className="sm:flex-1">
            Fortsett der du slapp
          </Button>
          <Button variant="secondary" onClick={onDiscard} className="sm:flex-1">
            Forkast utkastet
          </Button>
        </div>
      </section>
    </div>
  );
}
