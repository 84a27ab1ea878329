import { ArrowLeftRight, MessageCircle, ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { useNavigate } from "react-router-dom";
import { formatPrice } from "../../../domain/format";
import { startConversation } from "../../api/conversations";
import type { ListingPage } from "../../api/listings";
import { Button } from "../../components/ui/Button";
import { toastError } from "../../lib/toast";
import { useSession } from "../../lib/useSession";

export interface ListingActionBarProps {
  listing: Pick<ListingPage, "id" | "price" | "is_free" | "is_trade_offer" | "status">;
  isOwner: boolean;
}

/**
 * The bottom bar (spec part 2 "Listing detail", §5; DESIGN "Payments"): buy for every non-owner on
 * non-free active listings, "Foreslå bytte" when trades are allowed, "Send melding".
 */
export function ListingActionBar({ listing, isOwner }: ListingActionBarProps) {
  const session = useSession();
  const navigate = useNavigate();
  const noteId = useId();
  const [starting, setStarting] = useState(false);
  const signedIn = session.status === "signed-in";
  const loading = session.status === "loading";
  const active = listing.status === "active";
  const showBuy = !isOwner && !listing.is_free && active;
  const showTrade = listing.is_trade_offer && active;

  const loginRequired = (description: string) => {
    toastError("Logg inn påkrevd", description, { id: "login-required" });
    navigate("/auth");
  };

  const buy = () => {
    if (loading) return;
    if (!signedIn) {
      toastError("Innlogging påkrevd", "Du må være innlogget for å kjøpe", { id: "login-required" });
      navigate("/auth");
    }
  };

  const proposeTrade = () => {
    if (loading) return;
    if (!signedIn) return loginRequired("Du må være logget inn for å foreslå bytte");
    if (isOwner) return toastError("Feil", "Du kan ikke foreslå bytte på din egen annonse");
    navigate(`/trade-offer/${listing.id}`);
  };

  const sendMessage = async () => {
    if (loading || starting) return;
    if (!signedIn) return loginRequired("Du må være logget inn for å sende melding");
    if (isOwner) return toastError("Dette er din annonse", "Du kan ikke sende melding til deg selv");
    // The one conversation for this listing, buyer and seller: new, or the one from before.
    setStarting(true);
    try {
      const { id } = await startConversation(listing.id);
      navigate(`/chat/${id}`);
    } catch {
      toastError("Feil", "Kunne ikke starte samtale");
      setStarting(false);
    }
  };

  return (
    <div className="sticky bottom-0 z-20 -mx-4 mt-6 space-y-2 border-t border-stone-200 bg-white/95 px-4 py-3 backdrop-blur md:static md:mx-0 md:border-0 md:bg-transparent md:px-0 md:backdrop-blur-none">
      {showBuy ? (
        <div>
          {/* Payments arrive with their own issue: a signed-in buyer sees the button, honestly disabled. */}
          <Button
            size="lg"
            className="w-full text-base"
            onClick={buy}
            disabled={signedIn}
            aria-describedby={signedIn ? noteId : undefined}
          >
            <ShieldCheck aria-hidden="true" className="size-5 shrink-0" />
            Kjøp nå med trygg betaling (Vipps/Stripe) - {formatPrice(listing.price, false)}
          </Button>
          {signedIn ? (
            <p id={noteId} className="mt-1 text-center text-sm text-stone-700">
              Betaling kommer snart
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="flex gap-2">
        {showTrade ? (
          <Button variant="accent" className="flex-1" onClick={proposeTrade}>
            <ArrowLeftRight aria-hidden="true" className="size-5" />
            Foreslå bytte
          </Button>
        ) : null}
        <Button variant="secondary" className="flex-1" onClick={() => void sendMessage()} disabled={starting} aria-busy={starting || undefined}>
          <MessageCircle aria-hidden="true" className="size-5" />
          Send melding
        </Button>
      </div>
    </div>
  );
}
