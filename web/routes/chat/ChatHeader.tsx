import { Link } from "react-router-dom";
import { formatPrice } from "../../../domain/format";
import type { ConversationDetail } from "../../api/conversations";
import { BackLink } from "../../components/BackLink";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";

/**
 * Back to /messages, then the listing (thumbnail, title, the other party, price); tapping the
 * listing part opens it (spec part 2 "Chat").
 */
export function ChatHeader({ conversation }: { conversation: ConversationDetail }) {
  const { listing, other_user: other } = conversation;
  return (
    <header className="flex items-center gap-1 border-b border-stone-200 bg-white px-2 py-2">
      <BackLink to="/messages" label="Tilbake til meldinger" />
      <Link to={`/listing/${listing.id}`} className="flex min-w-0 flex-1 items-center gap-3 rounded-xl p-1 hover:bg-stone-50">
        <img
          src={firstImageUrl(listing.images) ?? PLACEHOLDER_IMAGE}
          alt=""
          width={48}
          height={48}
          className="size-12 shrink-0 rounded-lg bg-stone-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base leading-tight font-bold text-stone-900">{listing.title}</h1>
          <p className="truncate text-sm text-stone-700">
            {other.display_name} · <span className="font-semibold text-stone-900">{formatPrice(listing.price, listing.is_free)}</span>
          </p>
        </div>
      </Link>
    </header>
  );
}
