import { Link } from "../../components/Link";
import { formatPrice } from "../../../domain/format";
import type { ConversationDetail } from "../../api/chat";
import { BackLink } from "../../components/BackLink";
import { Badge } from "../../components/ui/Badge";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";

/** The listing's state beside its title once it is no longer simply for sale. */
const STATUS_BADGE: Record<string, string> = {
  reserved: "Reservert",
  sold: "Solgt",
  traded: "Byttet",
  given_away: "Gitt bort",
};

/**
 * Back to /messages, then the listing (thumbnail, title, the other party, price); tapping the
 * listing part opens it (docs/product.md "Messages and chat"). After a deal the parties still may (decision 088).
 */
export function ChatHeader({ conversation }: { conversation: ConversationDetail }) {
  const { listing, other_user: other } = conversation;
  const status = STATUS_BADGE[listing.status];
  return (
    <header className="flex items-center gap-1 border-b border-stone-200 bg-white px-1.5 py-1">
      <BackLink to="/messages" label="Tilbake til meldinger" />
      <Link to={`/listing/${listing.id}`} className="flex min-w-0 flex-1 items-center gap-2.5 rounded-xl p-1 hover:bg-stone-50">
        <img
          src={firstImageUrl(listing.images) ?? PLACEHOLDER_IMAGE}
          alt=""
          width={40}
          height={40}
          className="size-10 shrink-0 rounded-lg bg-stone-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center gap-1.5">
            <h1 className="truncate text-base leading-tight font-bold text-stone-900">{listing.title}</h1>
            {status ? (
              <Badge tone={listing.status === "reserved" ? "reserved" : "success"} className="shrink-0">
                {status}
              </Badge>
            ) : null}
          </div>
          <p className="truncate text-sm text-stone-700">
            {other.display_name} · <span className="font-semibold text-stone-900">{formatPrice(listing.price, listing.is_free)}</span>
          </p>
        </div>
      </Link>
    </header>
  );
}
