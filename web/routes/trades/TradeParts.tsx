import { Link } from "../../components/Link";
import { formatDate, formatPrice } from "../../../domain/format";
import {
  TRADE_STATUS_LABELS,
  displayStatus,
  timeLeftLabel,
  type TradeDisplayStatus,
  type TradeListing,
  type TradeOfferState,
} from "../../../domain/trades";
import type { TradeOfferBody } from "../../api/trades";
import { Badge, type BadgeTone } from "../../components/ui/Badge";
import { cn } from "../../lib/cn";
import { PLACEHOLDER_IMAGE, firstImageUrl } from "../../lib/images";

/** Each state its own colour: waiting amber, agreed blue, refused red, done green, called off grey, lapsed outlined. */
export const TRADE_BADGE_TONES: Record<TradeDisplayStatus, BadgeTone> = {
  pending: "waiting",
  accepted: "info",
  rejected: "danger",
  completed: "success",
  cancelled: "muted",
  expired: "outline",
};

/** The status badge (docs/product.md "States"): Venter ({n}t/d igjen), Akseptert, Avslått, Fullført, Avbrutt, Utløpt. */
export function TradeStatusBadge({ offer, now = new Date() }: { offer: Pick<TradeOfferState, "status" | "expires_at">; now?: Date }) {
  const status = displayStatus(offer, now);
  return (
    <Badge tone={TRADE_BADGE_TONES[status]}>
      {TRADE_STATUS_LABELS[status]}
      {status === "pending" ? <span className="font-normal">· {timeLeftLabel(offer.expires_at, now)}</span> : null}
    </Badge>
  );
}

/**
 * A listing in a trade: photo, title and price; it links to the listing while its viewer may open it.
 * `compact` (the chat's cards): a small photo, the label and price on one line, the title on one.
 */
export function TradeListingRow({
  label,
  listing,
  className,
  compact,
  traded,
}: {
  label: string;
  listing: TradeListing;
  className?: string;
  compact?: boolean;
  /** This trade completed: its parties may open the traded listings (decision 088). */
  traded?: boolean;
}) {
  const src = firstImageUrl(listing.images) ?? PLACEHOLDER_IMAGE;
  const linkable = listing.status === "active" || listing.status === "reserved" || (traded && listing.status === "traded");
  const title = <span className={cn("font-semibold text-stone-900", compact ? "block truncate" : "line-clamp-2")}>{listing.title}</span>;
  const size = compact ? 40 : 56;
  return (
    <div className={cn("flex min-w-0 items-center", compact ? "gap-2" : "gap-3", className)}>
      <img
        src={src}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        className={cn("shrink-0 rounded-lg bg-stone-100 object-cover", compact ? "size-10" : "size-14")}
      />
      <div className="min-w-0 text-sm">
        <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">
          {label}
          {compact ? (
            <span className="font-normal tracking-normal normal-case"> · {formatPrice(listing.price, listing.is_free)}</span>
          ) : null}
        </p>
        {linkable ? (
          <Link to={`/annonse/${listing.seo_slug}`} className="hover:underline">
            {title}
          </Link>
        ) : (
          title
        )}
        {compact ? null : <p className="text-stone-700">{formatPrice(listing.price, listing.is_free)}</p>}
      </div>
    </div>
  );
}

/** From the accept on: who has confirmed the handover, or when the trade was completed. */
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
