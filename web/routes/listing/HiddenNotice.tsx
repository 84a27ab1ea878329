// "Skjult av moderator" above a hidden listing: only its owner and moderators can open one, so the
// notice loads on its own, off the listing page's first load (held by a size ratchet).
import { EyeOff } from "lucide-react";
import type { ListingHidden } from "../../../domain/schemas/listing";

export default function HiddenNotice({ hidden }: { hidden: ListingHidden }) {
  return (
    <div role="status" className="mb-3 flex gap-2 rounded-xl border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-950">
      <EyeOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <strong>Skjult av moderator.</strong> Annonsen vises ikke for andre.
        {hidden.reason ? <span className="block">Årsak: {hidden.reason}</span> : null}
      </p>
    </div>
  );
}
