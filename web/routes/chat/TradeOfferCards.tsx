import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeftRight } from "lucide-react";
import { useId, useState } from "react";
import { displayStatus, tradeActionsFor, type TradeAction } from "../../../domain/trades";
import { chatKeys } from "../../api/chat";
import { isApiError } from "../../api/client";
import { conversationTradeOffersQuery, moveTradeOffer, tradeKeys, type TradeOfferBody } from "../../api/trades";
import { reviewKeys } from "../../api/reviews";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";
import { Handover, TradeListingRow, TradeStatusBadge } from "../trades/TradeParts";
import { LIVE_CARD, STRIP_ACTIONS } from "./dealStrip";
import { StripLine } from "./StripLine";

/**
 * The offer cards above the chat's messages (docs/product.md "Messages and chat", "States", "Error messages"). They refetch whenever
 * the conversation's room says an offer changed (the chat invalidates the event key), so both
 * parties see the same state at once. A failed fetch shows nothing (docs/product.md "Error messages": fails silently).
 * Offers still in play (waiting for an answer, or agreed and waiting for the handover) show their
 * card with its buttons; finished, refused, withdrawn and lapsed ones shrink to one line that opens
 * the card, newest first, so the messages keep the screen (decision 088).
 */
export function TradeOfferCards({ conversationId, myId }: { conversationId: string; myId: string }) {
  const offers = useQuery(conversationTradeOffersQuery(conversationId));
  if (!offers.data?.length) return null;
  const now = new Date();
  const open = offers.data.filter((o) => isOpenOffer(o, now));
  const closed = offers.data
    .filter((o) => !isOpenOffer(o, now))
    .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
  return (
    <section aria-label="Bytteforslag" className="space-y-1">
      {[...open, ...closed].map((offer) => (
        <TradeOfferCard key={offer.id} offer={offer} myId={myId} conversationId={conversationId} collapsible={!isOpenOffer(offer, now)} />
      ))}
    </section>
  );
}

/** Waiting for an answer (and not lapsed) or agreed: the parties still have something to do. */
function isOpenOffer(offer: TradeOfferBody, now: Date): boolean {
  const status = displayStatus(offer, now);
  return status === "pending" || status === "accepted";
}

const SUCCESS: Partial<Record<TradeAction, [string, string?]>> = {
  accept: ["Bytteforslag akseptert!", "Dere kan nå avtale videre detaljer"],
  reject: ["Bytteforslag avslått"],
};

function TradeOfferCard({
  offer,
  myId,
  conversationId,
  collapsible,
}: {
  offer: TradeOfferBody;
  myId: string;
  conversationId: string;
  collapsible: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const mine = offer.from_user_id === myId;
  const other = offer.other_user.display_name;
  const actions = tradeActionsFor(offer, myId, new Date(), offer.handover?.confirmed_by_me ?? false);
  // A plain request with its own busy flag rather than useMutation: the chat's first load leaves
  // out TanStack's mutation observer (about 1 KB gzipped, decision 104).
  const [busy, setBusy] = useState(false);
  const act = async (action: TradeAction) => {
    setBusy(true);
    try {
      const updated = await moveTradeOffer(offer.id, action);
      queryClient.setQueryData(tradeKeys.conversation(conversationId), (list: TradeOfferBody[] | undefined) =>
        list?.map((o) => (o.id === updated.id ? updated : o)),
      );
      void queryClient.invalidateQueries({ queryKey: tradeKeys.conversation(conversationId) });
      void queryClient.invalidateQueries({ queryKey: tradeKeys.history });
      // The listing's state in the chat header moves with the offer (accepted: reserved; completed: traded).
      void queryClient.invalidateQueries({ queryKey: chatKeys.detail(conversationId) });
      // The confirmation that completes the trade opens the review prompt here at once, not only
      // when the room's event arrives (a socket still connecting misses the event; decision 070).
      if (updated.status === "completed") void queryClient.invalidateQueries({ queryKey: reviewKeys.conversation(conversationId) });
      const [title, description] = SUCCESS[action] ?? [];
      if (title) toastSuccess(title, description);
      setConfirmingCancel(false);
    } catch (error) {
      const reason = isApiError(error) && error.status !== 500 && error.code !== "NETWORK" ? ` ${error.message}` : "";
      toastError("Feil", `Kunne ikke oppdatere bytteforslag.${reason}`, { error });
      void queryClient.invalidateQueries({ queryKey: tradeKeys.conversation(conversationId) });
    } finally {
      setBusy(false);
    }
  };

  const label = `Bytteforslag: ${offer.offered_listing.title} mot ${offer.requested_listing.title}`;
  const heading = (
    <p className="flex min-w-0 items-center gap-1.5 text-sm font-semibold text-stone-900">
      <ArrowLeftRight aria-hidden="true" className="size-4 shrink-0 text-accent-700" />
      <span className="truncate">{mine ? "Du foreslo et bytte" : `${other} foreslo et bytte`}</span>
    </p>
  );
  const hidden = collapsible && !expanded;

  return (
    <article className="rounded-xl border border-stone-200 bg-white shadow-sm" aria-label={label} {...(collapsible ? {} : LIVE_CARD)}>
      {collapsible ? (
        // One line: what was offered for what, and how it ended; the card opens below it.
        <StripLine expanded={expanded} onToggle={() => setExpanded(!expanded)} controls={bodyId}>
          <ArrowLeftRight aria-hidden="true" className="size-4 shrink-0 text-stone-600" />
          <span className="min-w-0 flex-1 truncate text-stone-800">
            <span className="font-semibold text-stone-900">{offer.offered_listing.title}</span> mot {offer.requested_listing.title}
          </span>
          <TradeStatusBadge offer={offer} />
        </StripLine>
      ) : (
        <header className="flex items-center justify-between gap-2 px-2.5 pt-2.5">
          {heading}
          <TradeStatusBadge offer={offer} />
        </header>
      )}
      {/* Collapsed, the card stays in the page (hidden), so its text is there when it opens again. */}
      <div id={bodyId} hidden={hidden} className={cn("px-2.5 pb-2.5", collapsible ? "border-t border-stone-100 pt-2" : "pt-2")}>
        {collapsible ? heading : null}
        <div className={cn("grid grid-cols-2 gap-2", collapsible && "mt-2")}>
          <TradeListingRow
            compact
            traded={offer.status === "completed"}
            label={mine ? "Du tilbyr" : "De tilbyr"}
            listing={offer.offered_listing}
          />
          <TradeListingRow
            compact
            traded={offer.status === "completed"}
            label={mine ? "Du vil ha" : "De vil ha"}
            listing={offer.requested_listing}
          />
        </div>
        {offer.message ? (
          <p className="mt-2 line-clamp-3 rounded-lg bg-stone-50 px-3 py-1.5 text-sm whitespace-pre-line text-stone-800">{offer.message}</p>
        ) : null}
        <Handover offer={offer} other={other} />
        {offer.status === "pending" && mine && actions.length > 0 ? <p className="mt-2 text-sm text-stone-700">Venter på svar...</p> : null}
        {actions.length > 0 ? (
          <div className={cn("flex flex-wrap gap-2", STRIP_ACTIONS)}>
            {actions.includes("accept") ? (
              <Button size="sm" onClick={() => void act("accept")} disabled={busy}>
                Aksepter
              </Button>
            ) : null}
            {actions.includes("reject") ? (
              <Button size="sm" variant="secondary" onClick={() => void act("reject")} disabled={busy}>
                Avslå
              </Button>
            ) : null}
            {actions.includes("confirm") ? (
              <Button size="sm" onClick={() => void act("confirm")} disabled={busy}>
                Bekreft overlevering
              </Button>
            ) : null}
            {actions.includes("cancel") && !confirmingCancel ? (
              <Button size="sm" variant="secondary" onClick={() => setConfirmingCancel(true)} disabled={busy}>
                {offer.status === "pending" ? "Trekk tilbake" : "Avbryt byttet"}
              </Button>
            ) : null}
            {confirmingCancel ? (
              <div role="group" aria-label="Bekreft" className="flex flex-wrap items-center gap-2">
                <span className="text-sm text-stone-800">
                  {offer.status === "pending" ? "Trekke tilbake forslaget?" : "Avbryte byttet? Begge annonsene blir aktive igjen."}
                </span>
                <Button size="sm" variant="secondary" onClick={() => void act("cancel")} disabled={busy}>
                  Ja
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfirmingCancel(false)} disabled={busy}>
                  Nei
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}
