import { Heart, ShieldCheck } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { Link } from "./Link";
import { formatPrice, relativeTime } from "../../domain/format";
import { isPayableInApp } from "../../domain/payment-methods";
import type { ListingCard as ListingCardData } from "../../domain/schemas/listing";
import { conditionLabel, type PricingMode } from "../../domain/taxonomy";
import { useFavourite } from "../lib/useFavourite";
import { cardPhoto } from "../../domain/photos";
import { firstImageKey, PLACEHOLDER_IMAGE } from "../lib/images";
import { cn } from "../lib/cn";
import { useNow } from "../lib/now";
import { Badge } from "./ui/Badge";
import { HANDOVER_LISTING_LABELS } from "../../domain/taxonomy";

const PAYMENT_LABELS: Record<Exclude<PricingMode, "standard">, string> = {
  stripe: "Stripe",
  vipps: "Vipps",
  marketplace: "Sikker betaling",
};

/**
 * The payment badge text, or null: only when payment is enabled and the mode is not standard, and
 * never on a listing with nothing to pay in the app (free, or below the minimum; decision 089).
 */
export function paymentBadgeLabel(listing: Pick<ListingCardData, "payment_enabled" | "pricing_mode" | "is_free" | "price">): string | null {
  if (listing.pricing_mode === "standard" || !isPayableInApp(listing)) return null;
  return PAYMENT_LABELS[listing.pricing_mode] ?? null;
}

export function listingPath(listing: Pick<ListingCardData, "seo_slug">): string {
  return `/annonse/${encodeURIComponent(listing.seo_slug)}`;
}

export interface ListingCardProps {
  listing: ListingCardData;
  /** The card title's heading level (h3 under a section's h2 by default). */
  headingLevel?: 2 | 3 | 4;
  /** For tests: the "now" relative times are computed from. */
  now?: Date;
  /** A card in the first screen's first row: its photo loads at once, with high priority (LCP). */
  priority?: boolean;
}

/** A grid cell for a listing card: off screen it skips its layout (styles.css `.listing-cell`). */
export const LISTING_CELL_CLASSES = "listing-cell flex";

/**
 * The card's fixed parts, shared with ListingCardSkeleton so a placeholder has the card's exact
 * size: the photo is 4:3 and the title always takes two lines, so every card in a row is as tall as
 * the others and a one-line title leaves no gap between the price and the line below it.
 */
export const cardClasses = {
  article: "group relative flex flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm",
  photo: "relative aspect-[4/3] bg-stone-100",
  body: "flex flex-1 flex-col gap-1 p-3",
  title: "line-clamp-2 min-h-[2lh] text-base leading-snug font-semibold text-stone-900",
  price: "text-lg leading-7 font-bold",
  meta: "mt-auto pt-1 text-sm leading-5 text-stone-700",
} as const;

export function ListingCard({ listing, headingLevel = 3, now, priority = false }: ListingCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const clock = useNow();
  const imageKey = imageFailed ? null : firstImageKey(listing.images);
  // The card's copies of the photo (decision 123): 360 px on a phone, 800 px on a dense large screen.
  const photo = imageKey ? cardPhoto(imageKey) : null;
  const payment = paymentBadgeLabel(listing);
  const Heading = `h${headingLevel}` as const;

  const favourite = useFavourite(listing.id);

  // The heart sits inside the clickable card: it toggles the favourite and never opens the listing.
  const onFavouriteClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    event.stopPropagation();
    favourite.toggle();
  };

  return (
    <article className={cn(cardClasses.article, "transition-shadow hover:shadow-md")}>
      <div className={cardClasses.photo}>
        {/* loading, srcset and sizes before src: a browser that sets src first may start on a copy it then drops. */}
        <img
          loading={priority ? "eager" : "lazy"}
          srcSet={photo?.srcSet}
          sizes={photo?.sizes}
          src={photo?.src ?? PLACEHOLDER_IMAGE}
          alt={photo ? listing.title : ""}
          fetchPriority={priority ? "high" : undefined}
          decoding="async"
          width={400}
          height={300}
          onError={photo ? () => setImageFailed(true) : undefined}
          className="size-full object-cover"
        />
        <div className="absolute top-2 left-2 flex max-w-[calc(100%-3.5rem)] flex-wrap gap-1">
          {listing.status === "reserved" ? <Badge tone="reserved">Reservert</Badge> : null}
          {listing.is_free ? <Badge tone="free">Gi bort</Badge> : null}
          {listing.is_trade_offer ? <Badge tone="trade">Åpen for bytte</Badge> : null}
          {listing.handover.includes("shipping") ? <Badge tone="neutral">{HANDOVER_LISTING_LABELS.shipping}</Badge> : null}
          {payment ? (
            <Badge tone="payment">
              <ShieldCheck aria-hidden="true" className="size-3.5" />
              {payment}
            </Badge>
          ) : null}
        </div>
        <button
          type="button"
          aria-label={favourite.isFavourite ? "Fjern fra favoritter" : "Legg til i favoritter"}
          aria-pressed={favourite.isFavourite}
          onClick={onFavouriteClick}
          className={cn(
            "absolute top-2 right-2 z-10 inline-flex size-10 items-center justify-center rounded-full bg-white/95 shadow-sm hover:text-red-700",
            favourite.isFavourite ? "text-red-700" : "text-stone-800",
          )}
        >
          <Heart aria-hidden="true" fill={favourite.isFavourite ? "currentColor" : "none"} className="size-5" />
        </button>
      </div>
      <div className={cardClasses.body}>
        <Heading className={cardClasses.title}>
          {/* Stretched link: the whole card opens the listing, without nesting the heart button in a link. */}
          <Link
            to={listingPath(listing)}
            className={cn(
              "after:absolute after:inset-0 after:z-0 after:rounded-2xl after:content-['']",
              "focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-700",
            )}
          >
            {listing.title}
          </Link>
        </Heading>
        <p className={cn(cardClasses.price, listing.is_free ? "text-emerald-800" : "text-brand-800")}>
          {formatPrice(listing.price, listing.is_free)}
        </p>
        <p className={cardClasses.meta}>
          {conditionLabel(listing.condition_rating)} <span aria-hidden="true">·</span>{" "}
          <time dateTime={listing.created_at} className="whitespace-nowrap">
            {relativeTime(listing.created_at, now ?? clock)}
          </time>
        </p>
      </div>
    </article>
  );
}
