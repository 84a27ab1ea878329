import { ArrowLeftRight, MessageCircle, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router-dom";
import { formatPrice } from "../../../domain/format";
import type { ListingPage } from "../../api/listings";
import { Button } from "../../components/ui/Button";
import { toastError } from "../../lib/toast";
import { useSession } from "../../lib/useSession";

// The payment chooser (and its dialog code) loads when a buyer taps "Kjøp nå", not with the page.
const PaymentChooser = lazy(() => import("./payment/PaymentChooser"));

export interface ListingActionBarProps {
  listing: Pick<ListingPage, "id" | "title" | "price" | "is_free" | "is_trade_offer" | "status" | "payment_enabled" | "pricing_mode">;
  isOwner: boolean;
}

/**
 * The bottom bar (spec part 2 "Listing detail", §5; DESIGN "Payments"): buy for every non-owner on
 * non-free active listings, "Foreslå bytte" when trades are allowed, "Send melding".
 */
export function ListingActionBar({ listing, isOwner }: ListingActionBarProps) {
  const session = useSession();
  const navigate = useNavigate();
  const [choosing, setChoosing] = useState(false);
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
      return;
    }
    setChoosing(true);
  };

  const proposeTrade = () => {
    if (loading) return;
    if (!signedIn) return loginRequired("Du må være logget inn for å foreslå bytte");
    if (isOwner) return toastError("Feil", "Du kan ikke foreslå bytte på din egen annonse");
    navigate(`/trade-offer/${listing.id}`);
  };

  const sendMessage = () => {
    if (loading) return;
    if (!signedIn) return loginRequired("Du må være logget inn for å sende melding");
    if (isOwner) return toastError("Dette er din annonse", "Du kan ikke sende melding til deg selv");
    // The conversation with the seller starts here once messaging is built; until then, the inbox.
    navigate("/messages");
  };

  return (
    <div className="sticky bottom-0 z-20 -mx-4 mt-6 space-y-2 border-t border-stone-200 bg-white/95 px-4 py-3 backdrop-blur md:static md:mx-0 md:border-0 md:bg-transparent md:px-0 md:backdrop-blur-none">
      {showBuy ? (
        <div>
          <Button size="lg" className="w-full text-base" onClick={buy} aria-haspopup="dialog">
            <ShieldCheck aria-hidden="true" className="size-5 shrink-0" />
            Kjøp nå med trygg betaling (Vipps/Stripe) - {formatPrice(listing.price, false)}
          </Button>
          {choosing ? (
            <Suspense fallback={null}>
              <PaymentChooser listing={listing} open={choosing} onOpenChange={setChoosing} />
            </Suspense>
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
        <Button variant="secondary" className="flex-1" onClick={sendMessage}>
          <MessageCircle aria-hidden="true" className="size-5" />
          Send melding
        </Button>
      </div>
    </div>
  );
}
