import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, MessageCircle } from "lucide-react";
import { Suspense, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../../components/Link";
import { GIVEAWAY_TEXTS as T, isInQueue, isJoinableListing, mineLabel } from "../../../../domain/giveaways";
import { isApiError } from "../../../api/client";
import type { ListingPage } from "../../../api/listings";
import { Button, buttonClasses } from "../../../components/ui/Button";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useSession, useSessionWhenKnown } from "../../../lib/useSession";
import { giveawayViewQuery, leaveQueue, refreshAfterMove } from "../../../api/giveaways";
import { lazyCode } from "../../../lib/missingCode";

// The dialog (its form, schema and the Radix dialog) loads when the taker opens it, not with the
// listing page (decision 102).
const JoinDialog = lazyCode(() => import("./JoinGiveawayDialog"));

export interface GiveawayTakerBarProps {
  listing: Pick<ListingPage, "id" | "status">;
}

/**
 * The taker's side of a free listing (docs/decisions/075-giveaway-queue.md): "Jeg vil ha den" with
 * a short message, then their own place ("Du er nr. 2 i køen"), the reservation with a link to its
 * chat, "Forlat køen", or how it ended.
 */
export default function GiveawayTakerBar({ listing }: GiveawayTakerBarProps) {
  const session = useSession();
  const sessionWhenKnown = useSessionWhenKnown();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = session.status === "signed-in" ? session.user.id : null;
  const view = useQuery({ ...giveawayViewQuery(listing.id, userId), enabled: session.status !== "loading" });
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const mine = view.data?.mine ?? null;
  const inQueue = mine ? isInQueue(mine.status) : false;
  const joinable = isJoinableListing(listing.status) && (!mine || mine.status === "withdrawn");

  // A press while the session is still being checked is carried out once it is known.
  const want = async () => {
    if (!(await sessionWhenKnown())) {
      toastError("Logg inn påkrevd", "Du må være logget inn for å stå i kø", { id: "login-required" });
      navigate("/auth");
      return;
    }
    setAsking(true);
  };

  const leave = async () => {
    setLeaving(true);
    try {
      await leaveQueue(listing.id);
      await refreshAfterMove(queryClient);
      toastSuccess(T.left);
    } catch (error) {
      toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
    } finally {
      setLeaving(false);
    }
  };

  const leaveButton = (
    <Button
      variant="secondary"
      size="sm"
      className="shrink-0"
      onClick={() => void leave()}
      disabled={leaving}
      aria-busy={leaving || undefined}
    >
      {T.leave}
    </Button>
  );

  return (
    <div className="space-y-2">
      {mine && mine.status !== "withdrawn" ? (
        <div role="status" className="rounded-xl border border-emerald-300 bg-emerald-50 px-3 py-2 text-stone-900">
          <div className="flex items-center gap-2">
            <p className="min-w-0 flex-1 font-semibold">{mineLabel(mine)}</p>
            {mine.status === "waiting" ? leaveButton : null}
          </div>
          {mine.status === "reserved" ? (
            <div className="mt-2 flex items-center gap-2">
              {mine.conversation_id ? (
                <Link to={`/chat/${mine.conversation_id}`} className={buttonClasses("primary", "sm", "flex-1")}>
                  <MessageCircle aria-hidden="true" className="size-4" />
                  {T.openChat}
                </Link>
              ) : null}
              {leaveButton}
            </div>
          ) : null}
        </div>
      ) : null}
      {joinable ? (
        <Button size="lg" className="w-full text-base" onClick={() => void want()} aria-haspopup="dialog">
          <Gift aria-hidden="true" className="size-5" />
          {T.want}
        </Button>
      ) : null}
      {view.data && view.data.waiting_count > 0 && !inQueue ? (
        <p className="text-center text-sm text-stone-700">{T.queueCount(view.data.waiting_count)}</p>
      ) : null}
      {asking ? (
        <Suspense fallback={null}>
          <JoinDialog listingId={listing.id} open={asking} onOpenChange={setAsking} />
        </Suspense>
      ) : null}
    </div>
  );
}
