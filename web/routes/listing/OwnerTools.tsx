import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../components/Link";
import { isApiError } from "../../api/client";
import { deleteListing, invalidateListingViews, setListingStatus, type ListingPage, type OwnerStatus } from "../../api/listings";
import { DeleteListingDialog } from "../../components/DeleteListingDialog";
import { buttonClasses } from "../../components/ui/Button";
import { toastError, toastSuccess } from "../../lib/toast";
import { OWNER_TRANSITIONS } from "../../../domain/listing-lifecycle";
import { DONE_TEXT, menuItemClasses, transitionLabel } from "../profile/OwnListingsSection";

export interface OwnerToolsProps {
  listing: Pick<ListingPage, "id" | "title" | "status">;
}

/**
 * What the owner gets on their own listing instead of "Send melding", "Foreslå bytte" and buy:
 * edit, the status changes the lifecycle allows (reserved, sold, given away, active again) and
 * delete with the confirmation of docs/product.md "Profile". Loaded only for owners (Radix stays out of visitors' pages).
 */
export function OwnerTools({ listing }: OwnerToolsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const transitions = OWNER_TRANSITIONS[listing.status];

  const changeStatus = async (status: OwnerStatus) => {
    setBusy(true);
    try {
      await setListingStatus(listing.id, status);
      // The page shows the listing from the cache: refetch it (and the lists it appears in).
      await invalidateListingViews(queryClient);
      toastSuccess(DONE_TEXT[status]);
    } catch (error) {
      toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await deleteListing(listing.id);
      toastSuccess("Annonse slettet");
      void invalidateListingViews(queryClient);
      navigate("/profile", { replace: true });
    } catch (error) {
      toastError("Feil", "Kunne ikke slette annonse", { error });
      setBusy(false);
    }
  };

  return (
    <div role="group" aria-label="Din annonse" className="flex flex-wrap gap-2">
      <Link to={`/edit-listing/${listing.id}`} className={buttonClasses("secondary", "md", "flex-1 px-3 whitespace-nowrap")}>
        <Pencil aria-hidden="true" className="size-5" />
        Rediger
      </Link>
      {transitions.length > 0 ? (
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger disabled={busy} className={buttonClasses("secondary", "md", "flex-1 px-3 whitespace-nowrap")}>
            Status
            <ChevronDown aria-hidden="true" className="size-5" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content
              align="end"
              side="top"
              sideOffset={6}
              className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1.5 shadow-lg"
            >
              {transitions.map((to) => (
                <DropdownMenu.Item key={to} className={menuItemClasses} onSelect={() => void changeStatus(to)}>
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
        onClick={() => setConfirming(true)}
        className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl border border-red-200 bg-white px-3 font-semibold whitespace-nowrap text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:text-stone-500"
      >
        <Trash2 aria-hidden="true" className="size-5" />
        Slett
      </button>

      <DeleteListingDialog
        title={confirming ? listing.title : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
