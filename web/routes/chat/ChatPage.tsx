import { useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageCircleX, WifiOff } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { ORDER_EVENT, SYSTEM_USER_ID, TRADE_OFFER_EVENT, type ChatMessage } from "../../../domain/chat";
import { isApiError } from "../../api/client";
import { chatKeys, conversationQuery, fetchOlderMessages, messagesQuery, type ConversationDetail, type MessagePage } from "../../api/chat";
import { conversationOrdersQuery } from "../../api/payment-keys";
import { conversationReviewsQuery, reviewKeys } from "../../api/reviews";
import { conversationTradeOffersQuery } from "../../api/trades";
import { LazyReportDialog } from "../../components/lazyDialogs";
import { Button, buttonClasses } from "../../components/ui/Button";
import { PageSpinner, Spinner } from "../../components/ui/Spinner";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useReport } from "../../lib/useReport";
import { useSession } from "../../lib/useSession";
import { FallbackScreen } from "../fallback/FallbackScreen";
import { mergeMessages } from "./chatState";
import { ChatHeader } from "./ChatHeader";
import { Composer } from "./Composer";
import { MessageList } from "./MessageList";
import { TradeOfferCards } from "./TradeOfferCards";
import { useChat } from "./useChat";

type ConversationReviews = typeof import("./ConversationReviews").ConversationReviews;
type OrderCards = typeof import("./OrderCards").OrderCards;
const loadReviews = () => import("./ConversationReviews").then((m) => m.ConversationReviews);
const loadOrderCards = () => import("./OrderCards").then((m) => m.OrderCards);

/** The strip parts' components once loaded, kept for the next chat. */
const loadedParts = new Map<() => Promise<unknown>, unknown>();

/**
 * A part of the strip above the messages whose code only some conversations need: the review prompt
 * (its line; an answered review's panel and the dialog come when needed) for a completed deal, the
 * held money's cards (decision 105) for a paid order. Loaded when `needed`, not with every chat
 * (decision 104). Returns the component once it is there; `failed` when it could not be loaded (the
 * chat then shows without it).
 */
function useStripPart<C>(load: () => Promise<C>, needed: boolean): { component?: C; failed: boolean } {
  const [component, setComponent] = useState(() => loadedParts.get(load) as C | undefined);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!needed || component) return;
    let live = true;
    load().then(
      (loaded) => {
        loadedParts.set(load, loaded);
        if (live) setComponent(() => loaded);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [load, needed, component]);
  return { component, failed };
}

/** /chat/{conversationId} (docs/product.md "Messages and chat"); login required by the router. */
export function ChatPage() {
  const { conversationId = "" } = useParams();
  // A new conversation is a new chat: no state carries over.
  return <ChatLoader key={conversationId} conversationId={conversationId} />;
}

function ChatLoader({ conversationId }: { conversationId: string }) {
  const navigate = useNavigate();
  const session = useSession();
  const conversation = useQuery({ ...conversationQuery(conversationId), retry: false });
  // The strip above the messages (offer cards, review prompt) is fetched together with the
  // conversation, and the chat shows once its first answer is in: the strip has its height at the
  // first paint instead of pushing the messages down when it arrives (a layout shift of 0.12,
  // decision 104). A failed strip request does not hold the chat up while it is retried.
  const offers = useQuery(conversationTradeOffersQuery(conversationId));
  const reviews = useQuery(conversationReviewsQuery(conversationId));
  const orders = useQuery(conversationOrdersQuery(conversationId));
  const reviewsCode = useStripPart<ConversationReviews>(loadReviews, !!reviews.data?.length);
  const ordersCode = useStripPart<OrderCards>(loadOrderCards, !!orders.data?.length);
  // Once settled it stays so: the strip's own components refetch a failed request when they mount.
  const [stripSettled, setStripSettled] = useState(false);
  if (
    !stripSettled &&
    [offers, reviews, orders].every((q) => !q.isPending || q.failureCount > 0) &&
    (!reviews.data?.length || reviewsCode.component || reviewsCode.failed) &&
    (!orders.data?.length || ordersCode.component || ordersCode.failed)
  )
    setStripSettled(true);
  const missing = isApiError(conversation.error) && (conversation.error.status === 404 || conversation.error.status === 400);
  useDocumentTitle(conversation.data ? `Samtale om ${conversation.data.listing.title}` : "Samtale");

  useEffect(() => {
    if (conversation.error && !missing) {
      toastError("Feil", "Kunne ikke hente samtale", { id: "chat-load", error: conversation.error });
      navigate("/messages", { replace: true });
    }
  }, [conversation.error, missing, navigate]);

  if (missing) {
    return (
      <FallbackScreen
        icon={<MessageCircleX className="size-8" />}
        title="Samtale ikke funnet"
        text="Samtalen finnes ikke, eller du har ikke tilgang til den."
      >
        <Link to="/messages" className={buttonClasses()}>
          Tilbake til meldinger
        </Link>
      </FallbackScreen>
    );
  }
  if (!conversation.data || !stripSettled || session.status !== "signed-in") return <PageSpinner label="Laster samtale..." />;
  return <ChatView conversation={conversation.data} myId={session.user.id} />;
}

/** Shows the "connecting" note only when the socket stays down for a moment (no flash on every load). */
function useDelayed(flag: boolean, ms: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!flag) return setShown(false);
    const timer = setTimeout(() => setShown(true), ms);
    return () => clearTimeout(timer);
  }, [flag, ms]);
  return shown;
}

/**
 * A system message that arrives while the chat is open (live, or in a catch-up) tells of a move in
 * the deal: a give-away reserved, released or given, which sends no event of its own, a trade or a
 * sale moved while the socket was away. The header's listing state is fetched again then.
 */
function useHeaderFollowsSystemMessages(messages: ChatMessage[], firstPage: MessagePage | undefined, refetch: () => void) {
  const newest = latestSystemSeq(messages);
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (!firstPage) return;
    // What the first page held was there when the header was fetched.
    if (seen.current === null) seen.current = Math.max(newest, latestSystemSeq(firstPage.messages));
    if (newest > seen.current) {
      seen.current = newest;
      refetch();
    }
  }, [newest, firstPage, refetch]);
}

function latestSystemSeq(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].sender_id === SYSTEM_USER_ID) return messages[i].seq;
  return 0;
}

/** The chat fills the screen below the site header, so the list scrolls and the composer stays put. */
function useFillViewport() {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      el.style.height = `max(24rem, calc(100dvh - ${Math.round(top)}px))`;
    };
    // At the start of the next frame, before its paint: measured as React commits, the page's layout
    // ran inside React's task, lengthening it on a phone.
    const first = requestAnimationFrame(fit);
    window.addEventListener("resize", fit);
    return () => {
      cancelAnimationFrame(first);
      window.removeEventListener("resize", fit);
    };
  }, []);
  return ref;
}

function ChatView({ conversation, myId }: { conversation: ConversationDetail; myId: string }) {
  const queryClient = useQueryClient();
  const page = useQuery({ ...messagesQuery(conversation.id), retry: 1 });
  // The header shows the listing's state ("Reservert", "Byttet", …), which the deal moves.
  const refetchHeader = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: chatKeys.detail(conversation.id) }),
    [queryClient, conversation.id],
  );
  const onEvent = useCallback(
    (name: string) => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.event(conversation.id, name) });
      // A trade that completes, or a sale whose money is released or refunded, opens the review
      // prompt (decisions 070, 105) and changes the listing's state in the header.
      if (name === TRADE_OFFER_EVENT || name === ORDER_EVENT) {
        void queryClient.invalidateQueries({ queryKey: reviewKeys.conversation(conversation.id) });
        refetchHeader();
      }
    },
    [queryClient, conversation.id, refetchHeader],
  );
  // The offers, orders and reviews above the messages, again after each catch-up: an event sent
  // while the socket was connecting or away is not replayed.
  const onCaughtUp = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: chatKeys.eventsOf(conversation.id) }),
    [queryClient, conversation.id],
  );
  const chat = useChat({ conversationId: conversation.id, myId, initial: page.data, onEvent, onCaughtUp });
  // A deal completed while the chat is open brings the prompt (and its code) then.
  const reviewStates = useQuery(conversationReviewsQuery(conversation.id));
  const ConversationReviews = useStripPart<ConversationReviews>(loadReviews, !!reviewStates.data?.length).component;
  // So does a purchase made while it is open: its card (and code) then.
  const orderStates = useQuery(conversationOrdersQuery(conversation.id));
  const OrderCards = useStripPart<OrderCards>(loadOrderCards, !!orderStates.data?.length).component;
  const report = useReport();
  const [older, setOlder] = useState<{ messages: ChatMessage[]; hasMore: boolean } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const frame = useFillViewport();
  const showConnecting = useDelayed(!!page.data && chat.status !== "open", 800);

  useEffect(() => {
    if (page.error) toastError("Feil", "Kunne ikke hente meldinger", { id: "chat-messages", error: page.error });
  }, [page.error]);

  const messages = older ? mergeMessages(older.messages, chat.messages) : chat.messages;
  useHeaderFollowsSystemMessages(chat.messages, page.data, refetchHeader);
  const hasMore = older ? older.hasMore : !!page.data?.has_more;

  const loadOlder = async () => {
    const el = scrollRef.current;
    const before = messages[0]?.seq;
    if (!before) return;
    setLoadingOlder(true);
    try {
      const fromBottom = el ? el.scrollHeight - el.scrollTop : 0;
      const result = await fetchOlderMessages(conversation.id, before);
      setOlder((current) => ({ messages: mergeMessages(current?.messages ?? [], result.messages), hasMore: result.has_more }));
      // Keep the reader where they were once the older messages are above.
      requestAnimationFrame(() => {
        if (el) el.scrollTop = el.scrollHeight - fromBottom;
      });
    } catch (error) {
      toastError("Feil", "Kunne ikke hente meldinger", { id: "chat-messages", error });
    } finally {
      setLoadingOlder(false);
    }
  };

  const goneReason = conversation.other_user.deleted
    ? "Brukeren har slettet kontoen sin. Du kan lese samtalen, men ikke sende nye meldinger."
    : undefined;

  return (
    <div ref={frame} className="mx-auto flex max-w-3xl flex-col bg-stone-50 md:border-x md:border-stone-200">
      <ChatHeader conversation={conversation} />
      {/*
        Offer cards and the review prompt share one strip with a cap, so with the headers above they
        never take more than about a third of a phone (decision 088); past the cap the strip scrolls.
        While a card waits for the parties (data-live) the cap is higher, so that card is seen whole
        on a phone, and its buttons stick to the lower edge on a shorter screen (decision 118).
        Empty (no offers, no deal) it takes no room at all. Focusable and named, so a card without
        buttons (a paid-out order, a sent parcel's steps) can still be scrolled with the arrow keys.
      */}
      <div
        data-deal-strip=""
        role="region"
        aria-label="Avtaler"
        tabIndex={0}
        className="max-h-[min(8.5rem,17dvh)] shrink-0 focus-visible:outline-offset-[-3px] space-y-1 overflow-y-auto overscroll-contain border-b border-stone-200 bg-stone-100/80 px-2 py-1 empty:hidden has-[[data-live]]:max-h-[min(17rem,36dvh)]"
      >
        {OrderCards ? <OrderCards conversationId={conversation.id} /> : null}
        <TradeOfferCards conversationId={conversation.id} myId={myId} />
        {ConversationReviews ? <ConversationReviews conversationId={conversation.id} /> : null}
      </div>
      {/*
        Focusable, so the messages can be scrolled with the arrow keys even when none of them has a
        button (own and system messages only); the ring is drawn inside, as the frame clips outside.
        The scroll padding makes Tab scroll a message's menu button clear of the edge, ring and all.
      */}
      <div
        ref={scrollRef}
        role="region"
        aria-label="Samtalen"
        tabIndex={0}
        className="min-h-0 flex-1 scroll-py-3 overflow-y-auto overscroll-contain focus-visible:outline-offset-[-3px]"
      >
        {page.isPending ? (
          <Spinner label="Laster samtale..." className="h-full" />
        ) : page.error ? (
          <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center">
            <p className="text-stone-700">Kunne ikke hente meldinger</p>
            <Button variant="secondary" size="sm" onClick={() => void page.refetch()}>
              Prøv igjen
            </Button>
          </div>
        ) : (
          <>
            {hasMore ? (
              <div className="flex justify-center pt-3">
                <Button variant="secondary" size="sm" onClick={() => void loadOlder()} disabled={loadingOlder}>
                  {loadingOlder ? "Laster..." : "Vis eldre meldinger"}
                </Button>
              </div>
            ) : null}
            <MessageList
              messages={messages}
              myId={myId}
              otherName={conversation.other_user.display_name}
              scrollRef={scrollRef}
              onReport={(id) => report.open({ type: "message", id })}
            />
          </>
        )}
      </div>
      {showConnecting ? (
        <p
          role="status"
          className="flex items-center justify-center gap-1.5 bg-accent-100 px-3 py-0.5 text-xs font-semibold text-accent-900"
        >
          <WifiOff aria-hidden="true" className="size-3.5 shrink-0" />
          Kobler til … Meldinger du sender, kommer fram likevel.
        </p>
      ) : null}
      <Composer onSend={chat.send} disabledReason={goneReason} />
      <LazyReportDialog target={report.target} onClose={report.close} />
    </div>
  );
}
