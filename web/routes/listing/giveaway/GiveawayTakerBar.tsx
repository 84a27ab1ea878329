import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, MessageCircle } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { GIVEAWAY_MESSAGE_MAX_LENGTH, GIVEAWAY_TEXTS as T, isInQueue, isJoinableListing, mineLabel } from "../../../../domain/giveaways";
import { joinGiveawaySchema } from "../../../../domain/schemas/giveaways";
import { isApiError } from "../../../api/client";
import type { ListingPage } from "../../../api/listings";
import { Modal, fieldClasses } from "../../../components/Modal";
import { Button, buttonClasses } from "../../../components/ui/Button";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useSession } from "../../../lib/useSession";
import { giveawayViewQuery, joinQueue, leaveQueue, refreshAfterMove } from "../../../api/giveaways";

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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = session.status === "signed-in" ? session.user.id : null;
  const view = useQuery({ ...giveawayViewQuery(listing.id, userId), enabled: session.status !== "loading" });
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const mine = view.data?.mine ?? null;
  const inQueue = mine ? isInQueue(mine.status) : false;
  const joinable = isJoinableListing(listing.status) && (!mine || mine.status === "withdrawn");

  const want = () => {
    if (session.status === "loading") return;
    if (session.status === "signed-out") {
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
      toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
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
        <Button size="lg" className="w-full text-base" onClick={want} aria-haspopup="dialog">
          <Gift aria-hidden="true" className="size-5" />
          {T.want}
        </Button>
      ) : null}
      {view.data && view.data.waiting_count > 0 && !inQueue ? (
        <p className="text-center text-sm text-stone-700">{T.queueCount(view.data.waiting_count)}</p>
      ) : null}
      {asking ? <JoinDialog listingId={listing.id} open={asking} onOpenChange={setAsking} /> : null}
    </div>
  );
}

function JoinDialog({ listingId, open, onOpenChange }: { listingId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const ids = { message: useId(), error: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = joinGiveawaySchema.safeParse({ message });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const view = await joinQueue(listingId, parsed.data.message);
      await refreshAfterMove(queryClient);
      toastSuccess(T.joined, view.mine ? mineLabel(view.mine) : undefined);
      onOpenChange(false);
    } catch (failure) {
      setError(isApiError(failure) ? (failure.fields?.message ?? failure.message) : "Noe gikk galt. Prøv igjen.");
      setSending(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={T.want}
      description="Giveren ser køen i den rekkefølgen folk meldte seg, med meldingen din."
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div>
          <label htmlFor={ids.message} className="mb-1 block font-medium text-stone-900">
            {T.messageLabel}
          </label>
          <textarea
            id={ids.message}
            value={message}
            rows={3}
            maxLength={GIVEAWAY_MESSAGE_MAX_LENGTH + 20}
            onChange={(e) => setMessage(e.target.value)}
            placeholder={T.messagePlaceholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            className={fieldClasses}
          />
          {error ? (
            <p id={ids.error} role="alert" className="mt-1 text-sm font-medium text-red-800">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Avbryt
          </Button>
          <Button type="submit" disabled={sending} aria-busy={sending || undefined}>
            {sending ? "Sender..." : T.join}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
