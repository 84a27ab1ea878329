import { ArrowLeftRight, MessageCircle, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { formatPrice } from "../../../domain/format";
import { onlineMethodsFor } from "../../../domain/payments";
import { CONTINUE_MESSAGE, CONTINUE_PARAM, signInPath } from "../../../domain/return-path";
import { isApiError } from "../../api/client";
import { startConversation } from "../../api/conversations";
import type { ListingPage } from "../../api/listings";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { useSession } from "../../lib/useSession";

const OwnerTools = lazy(() => import("./OwnerTools").then((m) => ({ default: m.OwnerTools })));
// The give-away queue's taker side loads only on free listings (docs/decisions/075).
const GiveawayTakerBar = lazy(() => import("./giveaway/GiveawayTakerBar"));
// The payment chooser (and its dialog code) loads when a buyer taps "Kjøp nå", not with the page.
const PaymentChooser = lazy(() => import("./payment/PaymentChooser"));

export interface ListingActionBarProps {
  listing: Pick<ListingPage, "id" | "title" | "price" | "is_free" | "is_trade_offer" | "status" | "payment_enabled" | "pricing_mode">;
  isOwner: boolean;
  className?: string;
}

/**
 * On a phone the bar sticks to the bottom of the screen while the whole listing scrolls past, and
 * ends up after the seller's other listings (ListingView puts it last); from `md` on it sits in
 * the details column. The owner gets owner tools in it instead.
 */
const barClasses =
  "sticky bottom-0 z-20 space-y-2 border-t border-stone-200 bg-white/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur md:static md:mt-6 md:border-0 md:bg-transparent md:px-0 md:pb-0 md:backdrop-blur-none";

/** The line under the buy button: how this listing can be paid (the chooser offers the same). */
function buyNote(listing: Pick<ListingPage, "payment_enabled" | "pricing_mode">): string {
  const online = onlineMethodsFor(listing);
  if (online.length === 2) return "Trygg betaling med Vipps eller Stripe";
  if (online[0] === "card") return "Trygg betaling med kort (Stripe)";
  if (online[0] === "vipps") return "Trygg betaling med Vipps";
  return "Kontant eller bankoverføring etter avtale med selgeren";
}

/**
 * The bottom bar (spec part 2 "Listing detail", §5; DESIGN "Payments"): buy for every non-owner on
 * non-free active listings, "Foreslå bytte" when trades are allowed, "Send melding".
 */
export function ListingActionBar({ listing, isOwner, className }: ListingActionBarProps) {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [starting, setStarting] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const signedIn = session.status === "signed-in";
  const loading = session.status === "loading";
  const active = listing.status === "active";
  const showBuy = !listing.is_free && active;
  const showTrade = listing.is_trade_offer && active;

  /** Sign-in comes back to `next` (this listing, or where the action goes on) instead of the front page. */
  const loginRequired = (description: string, next: string) => {
    toastError("Logg inn påkrevd", description, { id: "login-required" });
    navigate(signInPath(next));
  };
  const here = `${location.pathname}${location.search}`;

  const buy = () => {
    if (loading) return;
    if (!signedIn) {
      toastError("Innlogging påkrevd", "Du må være innlogget for å kjøpe", { id: "login-required" });
      navigate(signInPath(here));
      return;
    }
    setChoosing(true);
  };

  const proposeTrade = () => {
    if (loading) return;
    if (!signedIn) return loginRequired("Du må være logget inn for å foreslå bytte", `/trade-offer/${listing.id}`);
    navigate(`/trade-offer/${listing.id}`);
  };

  const sendMessage = async () => {
    if (loading || starting) return;
    if (!signedIn) {
      const back = new URLSearchParams(location.search);
      back.set(CONTINUE_PARAM, CONTINUE_MESSAGE);
      return loginRequired("Du må være logget inn for å sende melding", `${location.pathname}?${back}`);
    }
    // The one conversation for this listing, buyer and seller: new, or the one from before. The
    // owner never sees this button (they get the owner tools); the Worker refuses them with 403.
    setStarting(true);
    try {
      const { id } = await startConversation(listing.id);
      navigate(`/chat/${id}`);
    } catch (error) {
      if (isApiError(error) && error.status === 403) toastError("Dette er din annonse", "Du kan ikke sende melding til deg selv");
      else toastError("Feil", "Kunne ikke starte samtale");
      setStarting(false);
    }
  };

  // Back from sign-in with "?handling=melding": carry on with "Send melding" once, and take the
  // marker out of the URL (replace) so a reload or Back does not start it again.
  const carriedOn = useRef(false);
  useEffect(() => {
    if (carriedOn.current || !signedIn || params.get(CONTINUE_PARAM) !== CONTINUE_MESSAGE) return;
    carriedOn.current = true;
    const rest = new URLSearchParams(params);
    rest.delete(CONTINUE_PARAM);
    setParams(rest, { replace: true });
    if (!isOwner) void sendMessage();
  });

  if (isOwner) {
    return (
      <div className={cn(barClasses, className)}>
        <Suspense fallback={<div className="min-h-11" />}>
          <OwnerTools listing={listing} />
        </Suspense>
      </div>
    );
  }

  return (
    <div className={cn(barClasses, className)}>
      {listing.is_free ? (
        <Suspense fallback={<div className="min-h-12" />}>
          <GiveawayTakerBar listing={listing} />
        </Suspense>
      ) : null}
      {showBuy ? (
        <div>
          <Button size="lg" className="h-auto min-h-12 w-full py-2 text-base" onClick={buy} aria-haspopup="dialog">
            <ShieldCheck aria-hidden="true" className="size-5 shrink-0" />
            {/* The spec's label word for word; on a narrow phone it wraps to two balanced lines. */}
            <span className="text-balance text-center leading-snug">
              Kjøp nå med trygg betaling (Vipps/Stripe) - {formatPrice(listing.price, false)}
            </span>
          </Button>
          <p className="mt-1 text-center text-sm text-stone-700">{buyNote(listing)}</p>
          {choosing ? (
            <Suspense fallback={null}>
              <PaymentChooser listing={listing} open={choosing} onOpenChange={setChoosing} />
            </Suspense>
          ) : null}
        </div>
      ) : null}
      <div className="flex gap-2">
        {showTrade ? (
          <Button variant="accent" className="flex-1" onClick={proposeTrade} data-analytics="trade_offer_click" data-analytics-listing={listing.id}>
            <ArrowLeftRight aria-hidden="true" className="size-5" />
            Foreslå bytte
          </Button>
        ) : null}
        <Button
          variant="secondary"
          className="flex-1"
          onClick={() => void sendMessage()}
          disabled={starting}
          aria-busy={starting || undefined}
          data-analytics="message_click"
          data-analytics-listing={listing.id}
        >
          <MessageCircle aria-hidden="true" className="size-5" />
          Send melding
        </Button>
      </div>
    </div>
  );
}
