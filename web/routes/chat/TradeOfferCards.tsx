import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeftRight } from "lucide-react";
import { useState } from "react";
import { tradeActionsFor, type TradeAction } from "../../../domain/trades";
import { isApiError } from "../../api/client";
import { conversationTradeOffersQuery, moveTradeOffer, tradeKeys, type TradeOfferBody } from "../../api/trades";
import { Button } from "../../components/ui/Button";
import { toastError, toastSuccess } from "../../lib/toast";
import { Handover, TradeListingRow, TradeStatusBadge } from "../trades/TradeParts";

/**
 * The offer cards above the chat's messages (spec part 2 "Chat", §4, §8). They refetch whenever
 * the conversation's room says an offer changed (the chat invalidates the event key), so both
 * parties see the same state at once. A failed fetch shows nothing (the spec: fails silently).
 */
export function TradeOfferCards({ conversationId, myId }: { conversationId: string; myId: string }) {
  const offers = useQuery(conversationTradeOffersQuery(conversationId));
  if (!offers.data?.length) return null;
  return (
    <section aria-label="Bytteforslag" className="max-h-[45%] shrink-0 space-y-2 overflow-y-auto border-b border-stone-200 bg-white/70 p-3">
      {offers.data.map((offer) => (
        <TradeOfferCard key={offer.id} offer={offer} myId={myId} conversationId={conversationId} />
      ))}
    </section>
  );
}

const SUCCESS: Partial<Record<TradeAction, [string, string?]>> = {
  accept: ["Bytteforslag akseptert!", "Dere kan nå avtale videre detaljer"],
  reject: ["Bytteforslag avslått"],
};

function TradeOfferCard({ offer, myId, conversationId }: { offer: TradeOfferBody; myId: string; conversationId: string }) {
  const queryClient = useQueryClient();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const mine = offer.from_user_id === myId;
  const other = offer.other_user.display_name;
  const actions = tradeActionsFor(offer, myId, new Date(), offer.handover?.confirmed_by_me ?? false);
  const move = useMutation({
    mutationFn: (action: TradeAction) => moveTradeOffer(offer.id, action),
    onSuccess: (updated, action) => {
      queryClient.setQueryData(tradeKeys.conversation(conversationId), (list: TradeOfferBody[] | undefined) => list?.map((o) => (o.id === updated.id ? updated : o)));
      void queryClient.invalidateQueries({ queryKey: tradeKeys.conversation(conversationId) });
      void queryClient.invalidateQueries({ queryKey: tradeKeys.history });
      const [title, description] = SUCCESS[action] ?? [];
      if (title) toastSuccess(title, description);
      setConfirmingCancel(false);
    },
    onError: (error) => {
      const reason = isApiError(error) && error.status !== 500 && error.code !== "NETWORK" ? ` ${error.message}` : "";
      toastError("Feil", `Kunne ikke oppdatere bytteforslag.${reason}`);
      void queryClient.invalidateQueries({ queryKey: tradeKeys.conversation(conversationId) });
    },
  });
  const busy = move.isPending;
  const act = (action: TradeAction) => move.mutate(action);

  return (
    <article className="rounded-xl border border-stone-200 bg-white p-3 shadow-sm" aria-label={`Bytteforslag: ${offer.offered_listing.title} mot ${offer.requested_listing.title}`}>
      <header className="flex items-start justify-between gap-2">
        <p className="flex items-center gap-1.5 text-sm font-semibold text-stone-900">
          <ArrowLeftRight aria-hidden="true" className="size-4 text-accent-700" />
          {mine ? "Du foreslo et bytte" : `${other} foreslo et bytte`}
        </p>
        <TradeStatusBadge offer={offer} />
      </header>
      <div className="mt-2 grid grid-cols-1 gap-2 min-[360px]:grid-cols-2">
        <TradeListingRow label={mine ? "Du tilbyr" : "De tilbyr"} listing={offer.offered_listing} />
        <TradeListingRow label={mine ? "Du vil ha" : "De vil ha"} listing={offer.requested_listing} />
      </div>
      {offer.message ? <p className="mt-2 rounded-lg bg-stone-50 px-3 py-2 text-sm whitespace-pre-line text-stone-800">{offer.message}</p> : null}
      <Handover offer={offer} other={other} />
      {offer.status === "pending" && mine && actions.length > 0 ? <p className="mt-2 text-sm text-stone-700">Venter på svar...</p> : null}
      {actions.length > 0 ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {actions.includes("accept") ? (
            <Button size="sm" onClick={() => act("accept")} disabled={busy}>
              Aksepter
            </Button>
          ) : null}
          {actions.includes("reject") ? (
            <Button size="sm" variant="secondary" onClick={() => act("reject")} disabled={busy}>
              Avslå
            </Button>
          ) : null}
          {actions.includes("confirm") ? (
            <Button size="sm" onClick={() => act("confirm")} disabled={busy}>
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
              <span className="text-sm text-stone-800">{offer.status === "pending" ? "Trekke tilbake forslaget?" : "Avbryte byttet? Begge annonsene blir aktive igjen."}</span>
              <Button size="sm" variant="secondary" onClick={() => act("cancel")} disabled={busy}>
                Ja
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmingCancel(false)} disabled={busy}>
                Nei
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
