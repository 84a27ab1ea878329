import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, MessageCircle } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "../../../components/Link";
import { relativeTime } from "../../../../domain/format";
import { GIVEAWAY_TEXTS as T, type GiveawayQueueEntry } from "../../../../domain/giveaways";
import { isApiError } from "../../../api/client";
import { Button, buttonClasses } from "../../../components/ui/Button";
import { toastError, toastSuccess } from "../../../lib/toast";
import { giveawayViewQuery, markGiven, refreshAfterMove, releaseReservation, reserveEntry } from "../../../api/giveaways";

export interface GiveawayQueuePanelProps {
  listingId: string;
  giverId: string;
  now?: Date;
}

/**
 * The giver's queue (docs/decisions/075-giveaway-queue.md): everyone waiting in the order they
 * joined, with their message and "Reserver", and who is "Første i køen"; while reserved "Reservert
 * for {navn}" with "Frigi", "Marker som gitt bort" (asked once more) and the reservation's chat.
 */
export default function GiveawayQueuePanel({ listingId, giverId, now }: GiveawayQueuePanelProps) {
  const queryClient = useQueryClient();
  const view = useQuery(giveawayViewQuery(listingId, giverId));
  const [busy, setBusy] = useState(false);
  const [confirmGive, setConfirmGive] = useState(false);
  const headingId = useId();
  const queue = view.data?.queue ?? [];
  const reserved = queue.find((e) => e.status === "reserved");
  const given = queue.find((e) => e.status === "given");
  const waiting = queue.filter((e) => e.status === "waiting");

  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      await refreshAfterMove(queryClient);
      toastSuccess(done);
    } catch (error) {
      toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
    } finally {
      setBusy(false);
      setConfirmGive(false);
    }
  };

  if (view.isPending) return null;

  return (
    <section aria-labelledby={headingId} className="mt-6 rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-bold text-stone-900">
        <Gift aria-hidden="true" className="size-5 text-emerald-800" />
        {T.queueTitle} ({waiting.length})
      </h2>

      {given ? <p className="mt-2 font-semibold text-stone-900">{T.givenAwayDone(given.display_name)}</p> : null}

      {reserved ? (
        <div className="mt-3 rounded-xl border border-stone-200 bg-white p-3">
          <p className="font-semibold text-stone-900">{T.reservedFor(reserved.display_name)}</p>
          <p className="mt-1 break-words whitespace-pre-line text-stone-800">{reserved.message}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            {reserved.conversation_id ? (
              <Link to={`/chat/${reserved.conversation_id}`} className={buttonClasses("secondary", "md", "flex-1 whitespace-nowrap")}>
                <MessageCircle aria-hidden="true" className="size-5" />
                {T.openChat}
              </Link>
            ) : null}
            <Button
              variant="secondary"
              className="flex-1"
              disabled={busy}
              onClick={() => void act(() => releaseReservation(listingId), "Reservasjonen er frigitt")}
            >
              {T.release}
            </Button>
          </div>
          {confirmGive ? (
            <div role="group" aria-label="Bekreft" className="mt-2 rounded-xl bg-stone-50 p-3">
              <p className="text-stone-900">Gi leken til {reserved.display_name}? De andre i køen får beskjed.</p>
              <div className="mt-2 flex gap-2">
                <Button className="flex-1" disabled={busy} onClick={() => void act(() => markGiven(listingId), "Leken er gitt bort")}>
                  Ja, gitt bort
                </Button>
                <Button variant="secondary" className="flex-1" onClick={() => setConfirmGive(false)}>
                  Avbryt
                </Button>
              </div>
            </div>
          ) : (
            <Button className="mt-2 w-full" disabled={busy} onClick={() => setConfirmGive(true)}>
              {T.give}
            </Button>
          )}
        </div>
      ) : null}

      {/* Who is next, as a line of text: the first row's "Reserver" is the action. */}
      {!reserved && !given && waiting.length > 0 ? (
        <p className="mt-2 text-stone-800">
          {T.reserveFirst}: <span className="font-semibold text-stone-900">{waiting[0].display_name}</span>
        </p>
      ) : null}

      {waiting.length === 0 && !reserved && !given ? <p className="mt-2 text-stone-800">{T.emptyQueue}</p> : null}

      {waiting.length > 0 && !given ? (
        <ol aria-label="Køen" className="mt-3 space-y-2">
          {waiting.map((entry, index) => (
            <QueueRow
              key={entry.id}
              entry={entry}
              place={index + 1}
              now={now}
              canReserve={!reserved}
              busy={busy}
              onReserve={() => void act(() => reserveEntry(listingId, entry.id), T.reservedFor(entry.display_name))}
            />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function QueueRow({
  entry,
  place,
  now,
  canReserve,
  busy,
  onReserve,
}: {
  entry: GiveawayQueueEntry;
  place: number;
  now?: Date;
  canReserve: boolean;
  busy: boolean;
  onReserve: () => void;
}) {
  return (
    <li className="rounded-xl border border-stone-200 bg-white p-3">
      <div className="flex items-start gap-2">
        {/* The time is never broken ("Akkurat / nå"): beside the name, or whole at the start of the next line. */}
        <p className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2">
          <span className="min-w-0 font-semibold break-words text-stone-900">
            {place}. {entry.display_name}
          </span>
          <span className="text-sm whitespace-nowrap text-stone-700">
            <time dateTime={entry.joined_at}>{relativeTime(entry.joined_at, now)}</time>
          </span>
        </p>
        {canReserve ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={onReserve} aria-label={`${T.reserve} for ${entry.display_name}`}>
            {T.reserve}
          </Button>
        ) : null}
      </div>
      <p className="mt-1 break-words whitespace-pre-line text-stone-800">{entry.message}</p>
    </li>
  );
}
