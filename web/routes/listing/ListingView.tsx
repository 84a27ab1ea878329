import { ArrowLeft, Flag, Heart, Share2 } from "lucide-react";
import { Suspense, useState } from "react";
import { useNavigate } from "react-router-dom";
import { formatDate, formatPrice, relativeTime } from "../../../domain/format";
import { categoryLabel, CONDITIONS } from "../../../domain/taxonomy";
import type { ListingPage } from "../../api/listings";
import { EdgePart, lazyPart } from "../../components/EdgePart";
import { Badge } from "../../components/ui/Badge";
import { cn } from "../../lib/cn";
import { useNow } from "../../lib/now";
import { useFavourite } from "../../lib/useFavourite";
import { postalPlace, titleCasePlace } from "../../../domain/place";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useReport } from "../../lib/useReport";
import { isModerator, SESSION_DEPENDENT, useSession } from "../../lib/useSession";
import { useListingViewTracking } from "../../analytics/useListingViewTracking";
import { ImageCarousel } from "./ImageCarousel";
import { ListingAttributeRows } from "./ListingAttributeRows";
import { HandoverRow } from "./HandoverRow";
import { ListingActionBar, ListingMoreActions } from "./ListingActionBar";
import { lazyCode } from "../../lib/missingCode";

// The giver's queue panel loads only for the owner of a free listing (docs/decisions/075).
const GiveawayQueuePanel = lazyCode(() => import("./giveaway/GiveawayQueuePanel"));
// Only the owner and moderators can open a hidden listing: its notice loads with it.
const HiddenNotice = lazyCode(() => import("./HiddenNotice"));
// The report dialog's loader (web/components/lazyDialogs.tsx) comes with the first report.
const LazyReportDialog = lazyCode(() => import("../../components/lazyDialogs").then((m) => ({ default: m.LazyReportDialog })));
// The statistics load only for the few who may see them (owner, moderators).
const LazyListingStats = lazyCode(() => import("../../analytics/stats/LazyListingStats").then((m) => ({ default: m.LazyListingStats })));
// Below the listing and its actions: the seller's card and other listings keep the edge's HTML until
// someone wants them (pointed at, touched, focused) or is signed in (decision 120).
const sellerCard = lazyPart(() => import("../../components/SellerCard").then((m) => m.SellerCard));
const moreFromSeller = lazyPart(() => import("./MoreFromSeller").then((m) => m.MoreFromSeller));

const iconButton =
  "inline-flex size-11 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100 hover:text-brand-800 aria-pressed:text-red-700";

const statusBadge = "inline-flex items-center rounded-full bg-stone-800 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white";

/** Lifecycle states past "for sale", as the badge says them. */
const FINISHED_STATUS_TEXT: Partial<Record<ListingPage["status"], string>> = {
  sold: "Solgt",
  given_away: "Gitt bort",
  traded: "Byttet",
  deleted: "Slettet",
};

export function listingDocumentTitle(listing: Pick<ListingPage, "title" | "price" | "is_free" | "postal_code" | "place_name">): string {
  // Completed by useDocumentTitle with " | Lekebytte": the same title the edge page has (docs/product.md "Search engines").
  const place = listing.place_name ? titleCasePlace(listing.place_name) : listing.postal_code;
  return `${listing.title} - ${formatPrice(listing.price, listing.is_free)} | ${place}`;
}

export function shareUrl(listing: Pick<ListingPage, "seo_slug">): string {
  return `${window.location.origin}/annonse/${encodeURIComponent(listing.seo_slug)}`;
}

/** The listing page body shared by /listing/:id and /annonse/:slug (docs/product.md "Listing page"). */
export function ListingView({ listing, now }: { listing: ListingPage; now?: Date }) {
  useDocumentTitle(listingDocumentTitle(listing));
  const clock = useNow();
  const session = useSession();
  const navigate = useNavigate();
  const favourite = useFavourite(listing.id);
  const signedIn = session.status === "signed-in";
  const isOwner = signedIn && session.user.id === listing.user_id;
  // Visitors' views are counted (with their consent); the owner's own are not (docs/decisions/036).
  useListingViewTracking(listing.id, session.status === "loading" || isOwner);
  const condition = CONDITIONS.find((c) => c.rating === listing.condition_rating);
  const finishedStatus = FINISHED_STATUS_TEXT[listing.status];
  // A sold, traded or given-away listing that is not yours: shown to everyone as it was, read only
  // (decision 117): no buying, chat, trading, favourites or reports.
  const dealView = !!finishedStatus && !isOwner && !isModerator(session.status === "signed-in" ? session.user : null);
  const sellerName = listing.seller.display_name?.trim() || "Anonym";
  const report = useReport();
  const [reported, setReported] = useState(false);
  if (report.target && !reported) setReported(true);

  const goBack = () => {
    // Back where the visitor came from; a page opened directly goes to the home page.
    if (window.history.state && typeof window.history.state.idx === "number" && window.history.state.idx > 0) navigate(-1);
    else navigate("/");
  };

  const share = async () => {
    const url = shareUrl(listing);
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: listing.title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toastSuccess("Lenke kopiert");
    } catch {
      toastError("Feil", "Kunne ikke kopiere lenken");
    }
  };

  return (
    // A column on phones with the action bar last (it sticks to the bottom of the screen until the
    // page ends); from `md` a grid: photos on the left, details and the action bar on the right.
    <div className="mx-auto flex max-w-5xl flex-col sm:px-4 sm:pt-6 md:grid md:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] md:gap-x-8 md:pb-6">
      <div className="flex items-center gap-1 px-2 py-1 sm:px-0 md:col-span-2">
        <button type="button" onClick={goBack} aria-label="Tilbake" className={iconButton}>
          <ArrowLeft aria-hidden="true" className="size-6" />
        </button>
        <div className="ml-auto flex items-center gap-1">
          {dealView ? null : (
            <button
              type="button"
              onClick={favourite.toggle}
              aria-pressed={favourite.isFavourite}
              aria-label={favourite.isFavourite ? "Fjern fra favoritter" : "Legg til i favoritter"}
              className={iconButton}
            >
              <Heart aria-hidden="true" fill={favourite.isFavourite ? "currentColor" : "none"} className="size-6" />
            </button>
          )}
          {isOwner || dealView ? null : (
            <button
              type="button"
              onClick={() => report.open({ type: "listing", id: listing.id })}
              aria-label="Rapporter annonse"
              className={iconButton}
              {...SESSION_DEPENDENT}
            >
              <Flag aria-hidden="true" className="size-6" />
            </button>
          )}
          <button type="button" onClick={() => void share()} aria-label="Del annonsen" className={iconButton}>
            <Share2 aria-hidden="true" className="size-6" />
          </button>
        </div>
      </div>

      <div className="md:sticky md:top-4 md:row-span-2 md:self-start">
        <ImageCarousel images={listing.images} title={listing.title} />
      </div>

      <div className="px-4 pt-4 md:px-0 md:pt-0">
        {listing.hidden ? (
          <Suspense fallback={null}>
            <HiddenNotice hidden={listing.hidden} />
          </Suspense>
        ) : null}
        {dealView ? (
          <p role="status" className="mb-3 rounded-xl border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-stone-900">
            Annonsen er <strong>{finishedStatus.toLowerCase()}</strong>.
          </p>
        ) : finishedStatus ? (
          <p className="mb-3 rounded-xl border border-accent-300 bg-accent-100 px-3 py-2 text-sm text-stone-900">
            Annonsen er markert som <strong>{finishedStatus.toLowerCase()}</strong>
            {listing.status === "deleted" ? " og vises ikke for andre." : " og vises ikke i søk."}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-1.5">
          {listing.is_free ? <Badge tone="free">Gi bort</Badge> : null}
          {/* A finished deal is open to nothing: no trade offered any more. */}
          {listing.is_trade_offer && !finishedStatus ? <Badge tone="trade">Åpen for bytte</Badge> : null}
          {listing.status === "reserved" ? <span className={statusBadge}>Reservert</span> : null}
          {finishedStatus ? <span className={statusBadge}>{finishedStatus}</span> : null}
        </div>
        <p className={cn("mt-2 text-3xl font-extrabold", listing.is_free ? "text-emerald-800" : "text-brand-800")}>
          {formatPrice(listing.price, listing.is_free)}
        </p>
        <h1 className="mt-1 text-2xl leading-tight font-bold break-words text-stone-900">{listing.title}</h1>
        {dealView ? null : <ListingMoreActions listing={listing} isOwner={isOwner} className="mt-3" />}

        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-stone-800">
          <dt className="font-medium text-stone-600">Tilstand</dt>
          <dd>
            {condition ? (
              <span className="inline-flex rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-semibold text-brand-900">
                {condition.label} – {condition.description}
              </span>
            ) : null}
          </dd>
          <dt className="font-medium text-stone-600">Alder</dt>
          <dd>{listing.age_range}</dd>
          <dt className="font-medium text-stone-600">Kategori</dt>
          <dd>{categoryLabel(listing.category)}</dd>
          <ListingAttributeRows listing={listing} />
          <dt className="font-medium text-stone-600">Sted</dt>
          <dd>{postalPlace(listing.postal_code, listing.place_name)}</dd>
          <HandoverRow listing={listing} />
          <dt className="font-medium text-stone-600">Lagt ut</dt>
          <dd>
            <time dateTime={listing.created_at}>{relativeTime(listing.created_at, now ?? clock)}</time>
          </dd>
        </dl>

        {listing.description ? (
          <section className="mt-6" aria-labelledby="description-heading">
            <h2 id="description-heading" className="text-lg font-bold text-stone-900">
              Beskrivelse
            </h2>
            <p className="mt-2 break-words whitespace-pre-line text-stone-800">{listing.description}</p>
          </section>
        ) : null}

        <EdgePart
          part={sellerCard}
          keep={listing}
          live={signedIn}
          props={{
            name: sellerName,
            className: "mt-6",
            profile: listing.seller,
            action: isOwner ? null : (
              <button
                type="button"
                onClick={() => report.open({ type: "user", id: listing.seller.user_id })}
                {...SESSION_DEPENDENT}
                className="ml-auto inline-flex min-h-11 shrink-0 items-center gap-1.5 rounded-xl px-2 text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900"
              >
                <Flag aria-hidden="true" className="size-4" />
                Rapporter bruker
              </button>
            ),
            children: `Medlem siden ${formatDate(listing.seller.created_at)}`,
          }}
        />

        {isOwner && listing.is_free ? (
          <Suspense fallback={null}>
            <GiveawayQueuePanel listingId={listing.id} giverId={listing.user_id} now={now} />
          </Suspense>
        ) : null}

        {isOwner || isModerator(session.user) ? (
          <div className="mt-6">
            <Suspense fallback={null}>
              <LazyListingStats listingId={listing.id} />
            </Suspense>
          </div>
        ) : null}
      </div>

      {/* The bar itself is the column's child: a sticky element only sticks inside its parent. */}
      {dealView ? null : <ListingActionBar listing={listing} isOwner={isOwner} className="order-last md:order-none md:col-start-2" />}

      {listing.more_from_seller.length > 0 ? (
        <EdgePart part={moreFromSeller} keep={listing} props={{ listings: listing.more_from_seller, sellerName, now }} live={signedIn} />
      ) : null}
      {reported ? (
        <Suspense fallback={null}>
          <LazyReportDialog target={report.target} onClose={report.close} />
        </Suspense>
      ) : null}
    </div>
  );
}
