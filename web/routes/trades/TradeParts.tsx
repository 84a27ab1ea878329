import { Link } from "react-router-dom";
import { formatDate, formatPrice } from "../../../domain/format";
import { TRADE_STATUS_LABELS, displayStatus, timeLeftLabel, type TradeListing, type TradeOfferState } from "../../../domain/trades";
import type { TradeOfferBody } from "../../api/trades";
import { Badge } from "../../components/ui/Badge";
import { cn } from "../../lib/cn";
import { PLACEHOLDER_IMAGE, firstImageUrl } from "../../lib/images";

const badgeTone: Record<string, string> = {
  pending: "bg-accent-100 text-accent-900",
  accepted: "bg-sky-100 text-sky-900",
  rejected: "bg-red-100 text-red-900",
  completed: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-stone-200 text-stone-800",
  expired: "bg-stone-200 text-stone-800",
};

/** The status badge (spec §4): Venter ({n}t/d igjen), Akseptert, Avslått, Fullført, Avbrutt, Utløpt. */
export function TradeStatusBadge({ offer, now = new Date() }: { offer: Pick<TradeOfferState, "status" | "expires_at">; now?: Date }) {
  const status = displayStatus(offer, now);
  return (
    <Badge className={badgeTone[status]}>
      {TRADE_STATUS_LABELS[status]}
      {status === "pending" ? <span className="font-normal">· {timeLeftLabel(offer.expires_at, now)}</span> : null}
    </Badge>
  );
}

/** A listing in a swap: photo, title and price; it links to the listing while it is public. */
export function TradeListingRow({ label, listing, className }: { label: string; listing: TradeListing; className?: string }) {
  const src = firstImageUrl(listing.images) ?? PLACEHOLDER_IMAGE;
  const linkable = listing.status === "active" || listing.status === "reserved";
  const title = <span className="line-clamp-2 font-semibold text-stone-900">{listing.title}</span>;
  return (
    <div className={cn("flex min-w-0 items-center gap-3", className)}>
      <img src={src} alt="" width={56} height={56} loading="lazy" className="size-14 shrink-0 rounded-lg bg-stone-100 object-cover" />
      <div className="min-w-0 text-sm">
        <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{label}</p>
        {linkable ? (
          <Link to={`/annonse/${listing.seo_slug}`} className="hover:underline">
            {title}
          </Link>
        ) : (
          title
        )}
        <p className="text-stone-700">{formatPrice(listing.price, listing.is_free)}</p>
      </div>
    </div>
  );
}

/** From the accept on: who has confirmed the handover, or when the swap was completed. */
export function Handover({ offer, other }: { offer: TradeOfferBody; other: string }) {
  if (!offer.handover) return null;
  if (offer.status === "completed" && offer.handover.completed_at) {
    return <p className="mt-2 text-sm text-emerald-800">Byttet ble fullført {formatDate(offer.handover.completed_at)}.</p>;
  }
  if (offer.status !== "accepted") return null;
  const { confirmed_by_me: me, confirmed_by_other: them } = offer.handover;
  const text = me
    ? `Du har bekreftet overleveringen. Venter på at ${other} bekrefter.`
    : them
      ? `${other} har bekreftet overleveringen. Bekreft du også når du har fått leken.`
      : "Avtal overleveringen i chatten. Byttet er fullført når dere begge har bekreftet den.";
  return <p className="mt-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900">{text}</p>;
}
