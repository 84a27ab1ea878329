import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link } from "../../components/Link";
import { formatPrice } from "../../../domain/format";
import type { ListingCard } from "../../../domain/schemas/listing";
import { isListedListing, OWNER_TRANSITIONS, type OwnerStatus } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";
import { accountKeys, ownListingsQuery } from "../../api/account";
import { deleteListing, invalidateListingViews, setListingStatus } from "../../api/listings";
import { isApiError } from "../../api/client";
import { DeleteListingDialog } from "../../components/DeleteListingDialog";
import { Button, buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";
import { toastError, toastSuccess } from "../../lib/toast";
import { OwnListingStats } from "../../analytics/stats/OwnListingStats";

/** The precise lifecycle state beside "Aktiv"/"Inaktiv". */
export const STATUS_BADGES: Partial<Record<ListingStatus, string>> = {
  reserved: "Reservert",
  sold: "Solgt",
  given_away: "Gitt bort",
  traded: "Byttet",
};

export function transitionLabel(from: ListingStatus, to: OwnerStatus): string {
  if (to === "reserved") return "Marker som reservert";
  if (to === "sold") return "Marker som solgt";
  if (to === "given_away") return "Marker som gitt bort";
  return from === "reserved" ? "Fjern reservasjon" : "Aktiver igjen";
}

export const DONE_TEXT: Record<OwnerStatus, string> = {
  active: "Annonsen er aktiv igjen",
  reserved: "Annonsen er markert som reservert",
  sold: "Annonsen er markert som solgt",
  given_away: "Annonsen er markert som gitt bort",
};

export const menuItemClasses =
  "flex min-h-11 w-full cursor-pointer items-center rounded-lg px-3 text-base text-stone-900 select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

/** "Aktiv" only for an active listing that moderation has not hidden; anything else is "Inaktiv" (docs/product.md "Profile"). */
export function statusLabel(listing: Pick<ListingCard, "status" | "is_hidden">): "Aktiv" | "Inaktiv" {
  return isListedListing({ status: listing.status, is_hidden: !!listing.is_hidden }) ? "Aktiv" : "Inaktiv";
}

/** The profile's "Mine annonser (n)": the owner's listings with view, edit, status and delete. */
export function OwnListingsSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const { data, isPending, error, refetch, isRefetching } = useQuery(ownListingsQuery());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [toDelete, setToDelete] = useState<ListingCard | null>(null);

  useEffect(() => {
    if (error) toastError("Feil", "Kunne ikke hente annonser", { id: "own-listings", error });
  }, [error]);

  const busy = (id: string, on: boolean) =>
    setPending((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const changeStatus = async (listing: ListingCard, status: OwnerStatus) => {
    busy(listing.id, true);
    try {
      const updated = await setListingStatus(listing.id, status);
      queryClient.setQueryData<ListingCard[]>(accountKeys.listings, (list) =>
        list?.map((l) => (l.id === listing.id ? { ...l, ...updated, is_hidden: l.is_hidden } : l)),
      );
      void invalidateListingViews(queryClient);
      toastSuccess(DONE_TEXT[status]);
    } catch (err) {
      toastError("Feil", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
      void queryClient.invalidateQueries({ queryKey: accountKeys.listings });
    } finally {
      busy(listing.id, false);
    }
  };

  const remove = async (listing: ListingCard) => {
    busy(listing.id, true);
    try {
      await deleteListing(listing.id);
      queryClient.setQueryData<ListingCard[]>(accountKeys.listings, (list) => list?.filter((l) => l.id !== listing.id));
      void invalidateListingViews(queryClient);
      toastSuccess("Annonse slettet");
    } catch (error) {
      toastError("Feil", "Kunne ikke slette annonse", { error });
    } finally {
      busy(listing.id, false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {/* Product text: "Mine annonser (n)". */}
        <h2 id={headingId} className="text-lg font-bold text-stone-900">
          {data ? `Mine annonser (${data.length})` : "Mine annonser"}
        </h2>
        <Link to="/create-listing" className={buttonClasses("primary", "sm")}>
          <Plus aria-hidden="true" className="size-4" />
          Ny annonse
        </Link>
      </div>

      {isPending ? (
        <Spinner label="Laster annonser..." className="py-6" />
      ) : error ? (
        <div className="mt-3 text-stone-700">
          <p>Kunne ikke hente annonser</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void refetch()} disabled={isRefetching}>
            Prøv igjen
          </Button>
        </div>
      ) : data.length === 0 ? (
        <div className="mt-4 rounded-xl border border-dashed border-stone-300 p-6 text-center">
          <p className="text-stone-700">Du har ingen annonser ennå.</p>
          <Link to="/create-listing" className={buttonClasses("secondary", "sm", "mt-3")}>
            Legg ut din første annonse
          </Link>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200">
          {data.map((listing) => (
            <OwnListingRow
              key={listing.id}
              listing={listing}
              busy={pending.has(listing.id)}
              onStatus={(status) => void changeStatus(listing, status)}
              onDelete={() => setToDelete(listing)}
            />
          ))}
        </ul>
      )}

      <DeleteListingDialog
        title={toDelete?.title ?? null}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) void remove(toDelete);
        }}
      />
    </section>
  );
}

interface OwnListingRowProps {
  listing: ListingCard;
  busy: boolean;
  onStatus: (status: OwnerStatus) => void;
  onDelete: () => void;
}

function OwnListingRow({ listing, busy, onStatus, onDelete }: OwnListingRowProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const image = imageFailed ? null : firstImageUrl(listing.images);
  const label = statusLabel(listing);
  const stateBadge = STATUS_BADGES[listing.status];
  const transitions = OWNER_TRANSITIONS[listing.status];
  // The visible word first, then the title: unique names for each listing's controls (WCAG 2.5.3).
  const named = (action: string) => ({ "aria-label": `${action} ${listing.title}` });

  return (
    <li className="py-4" aria-busy={busy || undefined}>
      <div className="flex gap-3">
        <img
          src={image ?? PLACEHOLDER_IMAGE}
          alt=""
          width={80}
          height={80}
          loading="lazy"
          onError={image ? () => setImageFailed(true) : undefined}
          className="size-20 shrink-0 rounded-xl bg-stone-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <h3 className="line-clamp-2 font-semibold break-words text-stone-900">{listing.title}</h3>
          <p className={cn("font-bold", listing.is_free ? "text-emerald-800" : "text-brand-800")}>
            {formatPrice(listing.price, listing.is_free)}
          </p>
          <p className="mt-1 flex flex-wrap gap-1">
            <span
              className={cn(
                "inline-flex rounded-full px-2 py-0.5 text-xs font-semibold",
                label === "Aktiv" ? "bg-emerald-100 text-emerald-900" : "bg-stone-200 text-stone-800",
              )}
            >
              {label}
            </span>
            {stateBadge ? (
              <span className="inline-flex rounded-full bg-accent-200 px-2 py-0.5 text-xs font-semibold text-accent-900">{stateBadge}</span>
            ) : null}
            {listing.is_hidden ? (
              <span className="inline-flex rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                Skjult av moderator
              </span>
            ) : null}
          </p>
          {listing.is_hidden && listing.hidden_reason ? <p className="mt-1 text-sm text-red-900">Årsak: {listing.hidden_reason}</p> : null}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={`/listing/${listing.id}`} className={buttonClasses("secondary", "sm")} {...named("Vis")}>
          Vis
        </Link>
        <Link to={`/edit-listing/${listing.id}`} className={buttonClasses("secondary", "sm")} {...named("Rediger")}>
          Rediger
        </Link>
        {transitions.length > 0 ? (
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger disabled={busy} className={buttonClasses("secondary", "sm")} {...named("Status")}>
              Status
              <ChevronDown aria-hidden="true" className="size-4" />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="start"
                sideOffset={6}
                className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1.5 shadow-lg"
              >
                {transitions.map((to) => (
                  <DropdownMenu.Item key={to} className={menuItemClasses} onSelect={() => onStatus(to)}>
                    {transitionLabel(listing.status, to)}
                  </DropdownMenu.Item>
                ))}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        ) : null}
        <button
          type="button"
          disabled={busy}
          onClick={onDelete}
          {...named("Slett")}
          className="inline-flex min-h-9 items-center justify-center gap-1.5 rounded-xl px-3 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:text-stone-500"
        >
          <Trash2 aria-hidden="true" className="size-4" />
          Slett
        </button>
      </div>
      <OwnListingStats listingId={listing.id} title={listing.title} />
    </li>
  );
}
