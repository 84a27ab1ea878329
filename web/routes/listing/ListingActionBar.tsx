import { ArrowLeftRight, MessageCircle, ShieldCheck } from "lucide-react";
import { Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { formatPrice } from "../../../domain/format";
import { isPayableInApp, LISTING_PAYMENT_TEXTS as PAYMENT_TEXTS, onlineMethodsFor } from "../../../domain/payment-methods";
import { CONTINUE_MESSAGE, CONTINUE_PARAM, signInPath } from "../../../domain/return-path";
import { isApiError } from "../../api/client";
import type { ListingPage } from "../../api/listings";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { SESSION_DEPENDENT, useSession, useSessionWhenKnown } from "../../lib/useSession";
import { lazyCode } from "../../lib/missingCode";

const OwnerTools = lazyCode(() => import("./OwnerTools").then((m) => ({ default: m.OwnerTools })));
// The give-away queue's taker side loads only on free listings (docs/decisions/075).
const GiveawayTakerBar = lazyCode(() => import("./giveaway/GiveawayTakerBar"));
// The payment chooser (and its dialog code) loads when a buyer taps "Kjøp nå", not with the page.
const PaymentChooser = lazyCode(() => import("./payment/PaymentChooser"));

type ActionListing = Pick<
  ListingPage,
  "id" | "title" | "price" | "is_free" | "is_trade_offer" | "status" | "payment_enabled" | "pricing_mode" | "handover" | "parcel_size"
>;

export interface ListingActionBarProps {
  listing: ActionListing;
  isOwner: boolean;
  className?: string;
}

/**
 * On a phone the bar sticks to the bottom of the screen while the whole listing scrolls past, and
 * ends up after the seller's other listings (ListingView puts it last); from `md` on it sits in
 * the details column. It holds one line, the primary action, so the listing keeps the screen; the
 * other actions are under the title (ListingMoreActions). The owner gets owner tools in it instead.
 */
const barClasses =
  "sticky bottom-0 z-20 space-y-2 border-t border-stone-200 bg-white/95 px-4 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] backdrop-blur md:static md:mt-6 md:border-0 md:bg-transparent md:px-0 md:pb-0 md:backdrop-blur-none";

/** The line under the buy button: how this listing can be paid (the chooser offers the same). */
function buyNote(listing: Parameters<typeof onlineMethodsFor>[0]): string {
  const online = onlineMethodsFor(listing);
  if (online.length === 2) return "Trygg betaling med Vipps eller Stripe";
  if (online[0] === "card") return "Trygg betaling med kort (Stripe)";
  return "Trygg betaling med Vipps";
}

type Primary = "giveaway" | "buy" | "message";

/**
 * The bar's one action (docs/product.md "Listing page", "Validation", "Payments"): the give-away queue
 * on free listings; "Kjøp nå med trygg betaling" only where the buyer can pay in the app (the
 * Worker says so, decision 089); otherwise "Send melding", with a line saying that is how to buy.
 */
export function primaryAction(listing: Pick<ActionListing, "is_free" | "status" | "price" | "payment_enabled" | "pricing_mode">): Primary {
  if (listing.is_free) return "giveaway";
  if (listing.status === "active" && isPayableInApp(listing)) return "buy";
  return "message";
}

/**
 * Buying, proposing a trade and sending a message, with the sign-in rules; shared by the bar and the row
 * under the title. A press while the session is still being checked is carried out once it is
 * known, not dropped.
 */
function useListingActions(listing: ActionListing) {
  const session = useSession();
  const sessionWhenKnown = useSessionWhenKnown();
  const navigate = useNavigate();
  const location = useLocation();
  const [starting, setStarting] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const signedIn = session.status === "signed-in";

  /** Sign-in comes back to `next` (this listing, or where the action goes on) instead of the front page. */
  const loginRequired = (description: string, next: string) => {
    toastError("Logg inn påkrevd", description, { id: "login-required" });
    navigate(signInPath(next));
  };
  const here = `${location.pathname}${location.search}`;

  const buy = async () => {
    if (!(await sessionWhenKnown())) {
      toastError(PAYMENT_TEXTS.loginTitle, PAYMENT_TEXTS.login, { id: "login-required" });
      navigate(signInPath(here));
      return;
    }
    setChoosing(true);
  };

  const proposeTrade = async () => {
    if (!(await sessionWhenKnown())) return loginRequired("Du må være logget inn for å foreslå bytte", `/trade-offer/${listing.id}`);
    navigate(`/trade-offer/${listing.id}`);
  };

  const sendMessage = async () => {
    if (starting) return;
    if (!(await sessionWhenKnown())) {
      const back = new URLSearchParams(location.search);
      back.set(CONTINUE_PARAM, CONTINUE_MESSAGE);
      return loginRequired("Du må være logget inn for å sende melding", `${location.pathname}?${back}`);
    }
    // The one conversation for this listing, buyer and seller: new, or the one from before. The
    // owner never sees this button (they get the owner tools); the Worker refuses them with 403.
    setStarting(true);
    try {
      // The chat's client loads with the press, not with the listing.
      const { startConversation } = await import("../../api/chat");
      const { id } = await startConversation(listing.id);
      navigate(`/chat/${id}`);
    } catch (error) {
      if (isApiError(error) && error.status === 403) toastError("Dette er din annonse", "Du kan ikke sende melding til deg selv");
      else toastError("Feil", "Kunne ikke starte samtale", { error });
      setStarting(false);
    }
  };

  return { buy, proposeTrade, sendMessage, starting, choosing, setChoosing, signedIn };
}

function SendMessageButton({
  listing,
  variant,
  className,
}: {
  listing: ActionListing;
  variant: "primary" | "secondary";
  className?: string;
}) {
  const { sendMessage, starting } = useListingActions(listing);
  return (
    <Button
      variant={variant}
      className={className}
      onClick={() => void sendMessage()}
      disabled={starting}
      aria-busy={starting || undefined}
      data-analytics="message_click"
      data-analytics-listing={listing.id}
    >
      <MessageCircle aria-hidden="true" className="size-5" />
      Send melding
    </Button>
  );
}

export function ListingActionBar({ listing, isOwner, className }: ListingActionBarProps) {
  const { buy, choosing, setChoosing, sendMessage, signedIn } = useListingActions(listing);
  const [params, setParams] = useSearchParams();

  // Back from sign-in with "?handling=melding": carry on with "Send melding" once, and take the
  // marker out of the URL (replace) so a reload or Back does not start it again. The bar is on the
  // page once, so this runs once however many "Send melding" buttons the page shows.
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

  const primary = primaryAction(listing);
  return (
    <div className={cn(barClasses, className)} data-testid="listing-action-bar" {...SESSION_DEPENDENT}>
      {primary === "giveaway" ? (
        <Suspense fallback={<div className="min-h-12" />}>
          <GiveawayTakerBar listing={listing} />
        </Suspense>
      ) : null}
      {primary === "buy" ? (
        <div>
          <Button
            size="lg"
            className="h-auto min-h-12 w-full px-3 py-1.5 text-[0.9375rem] sm:text-base"
            onClick={() => void buy()}
            aria-haspopup="dialog"
          >
            <ShieldCheck aria-hidden="true" className="size-5 shrink-0" />
            {/* The label of docs/product.md "Listing page" word for word; on a narrow phone it wraps to two balanced lines in the one button. */}
            <span className="text-balance text-center leading-snug">
              Kjøp nå med trygg betaling (Vipps/Stripe) - {formatPrice(listing.price, false)}
            </span>
          </Button>
          <p className="mt-1 hidden text-center text-sm text-stone-700 md:block">{buyNote(listing)}</p>
          {choosing ? (
            <Suspense fallback={null}>
              <PaymentChooser listing={listing} open={choosing} onOpenChange={setChoosing} />
            </Suspense>
          ) : null}
        </div>
      ) : null}
      {primary === "message" ? (
        <div className="flex items-center gap-3">
          <div className="min-w-0 flex-1">
            <p className="text-lg leading-6 font-extrabold text-brand-800">{formatPrice(listing.price, false)}</p>
            {listing.status === "active" ? <p className="text-sm leading-5 text-stone-700">{PAYMENT_TEXTS.contactToBuy}</p> : null}
          </div>
          <SendMessageButton listing={listing} variant="primary" className="shrink-0" />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The actions that are not the bar's: "Foreslå bytte" when the listing allows trades, and
 * "Send melding" when the bar holds another action. Under the title, so they are at hand without
 * making the sticky bar taller.
 */
export function ListingMoreActions({ listing, isOwner, className }: ListingActionBarProps) {
  const { proposeTrade } = useListingActions(listing);
  if (isOwner) return null;
  const showTrade = listing.is_trade_offer && listing.status === "active";
  const showMessage = primaryAction(listing) !== "message";
  if (!showTrade && !showMessage) return null;
  return (
    <div className={cn("flex gap-2", className)} {...SESSION_DEPENDENT}>
      {showTrade ? (
        <Button
          variant="accent"
          className="flex-1"
          onClick={() => void proposeTrade()}
          data-analytics="trade_offer_click"
          data-analytics-listing={listing.id}
        >
          <ArrowLeftRight aria-hidden="true" className="size-5" />
          Foreslå bytte
        </Button>
      ) : null}
      {showMessage ? <SendMessageButton listing={listing} variant="secondary" className="flex-1" /> : null}
    </div>
  );
}
