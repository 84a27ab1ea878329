import { useQuery } from "@tanstack/react-query";
import { MessagesSquare } from "lucide-react";
import { Link } from "../../components/Link";
import { chatDayLabel, messageTime } from "../../../domain/chat-days";
import { osloDay } from "../../../domain/format";
import { SYSTEM_USER_ID } from "../../../domain/chat";
import { conversationsQuery, type ConversationSummary } from "../../api/chat";
import { EmptyListFindToys, ListLoadFailed } from "../../components/ListStates";
import { Spinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";

/** Today: the time; otherwise "I går" or the date. */
function when(iso: string, now = new Date()): string {
  return osloDay(new Date(iso)) === osloDay(now) ? messageTime(iso) : chatDayLabel(iso, now);
}

/**
 * /messages: the user's conversations, newest activity first, each with the listing, the other
 * party, the last message and its time, and the unread count. The header's inbox socket refetches
 * it when anything changes (web/lib/liveInbox.ts).
 */
export function InboxPage() {
  useDocumentTitle("Meldinger");
  const session = useSession();
  const myId = session.status === "signed-in" ? session.user.id : "";
  const { data, isPending, error, refetch, isRefetching } = useQuery(conversationsQuery());

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Meldinger</h1>
      {isPending ? (
        <Spinner label="Laster samtaler..." className="py-12" />
      ) : error ? (
        <ListLoadFailed onRetry={() => void refetch()} retrying={isRefetching} error={error}>
          Kunne ikke hente samtaler. {error.message}
        </ListLoadFailed>
      ) : data.length === 0 ? (
        <EmptyListFindToys icon={MessagesSquare}>
          <p className="mt-3 font-semibold text-stone-900">Ingen samtaler ennå</p>
          <p className="mt-1 text-stone-700">Finn en leke du liker og trykk «Send melding» for å starte en samtale med selgeren.</p>
        </EmptyListFindToys>
      ) : (
        <ul className="mt-4 divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white">
          {data.map((c) => (
            <li key={c.id}>
              <InboxRow conversation={c} myId={myId} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function InboxRow({ conversation: c, myId }: { conversation: ConversationSummary; myId: string }) {
  const unread = c.unread_count > 0;
  const last = c.last_message;
  const prefix = last ? (last.sender_id === myId ? "Du: " : last.sender_id === SYSTEM_USER_ID ? "Lekebytte: " : "") : "";
  return (
    <Link
      to={`/chat/${c.id}`}
      className="flex items-center gap-3 px-3 py-3 hover:bg-stone-50 focus-visible:outline-offset-[-3px] sm:px-4 [li:first-child>&]:rounded-t-2xl [li:last-child>&]:rounded-b-2xl"
    >
      <img
        src={firstImageUrl(c.listing.images) ?? PLACEHOLDER_IMAGE}
        alt=""
        width={56}
        height={56}
        className="size-14 shrink-0 rounded-xl bg-stone-100 object-cover"
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <h2 className={cn("min-w-0 flex-1 truncate text-base text-stone-900", unread ? "font-extrabold" : "font-semibold")}>
            {c.other_user.display_name}
          </h2>
          {last ? (
            <time dateTime={last.created_at} className={cn("shrink-0 text-xs", unread ? "font-bold text-brand-800" : "text-stone-600")}>
              {when(last.created_at)}
            </time>
          ) : null}
        </div>
        <p className="truncate text-sm text-stone-700">{c.listing.title}</p>
        <div className="flex items-center gap-2">
          <p className={cn("min-w-0 flex-1 truncate text-sm", unread ? "font-semibold text-stone-900" : "text-stone-600")}>
            {prefix}
            {last?.content}
          </p>
          {unread ? (
            <span className="inline-flex min-w-6 shrink-0 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs leading-6 font-bold text-white">
              {c.unread_count}
              <span className="sr-only"> uleste</span>
            </span>
          ) : null}
        </div>
      </div>
    </Link>
  );
}
