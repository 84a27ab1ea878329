import { useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { ArrowLeftRight, Inbox, Send, Trophy, type LucideIcon } from "lucide-react";
import { Suspense, useEffect, useId, useState, type ReactNode } from "react";
import { Link } from "../../components/Link";
import { formatDate } from "../../../domain/format";
import type { TradeHistoryCounts } from "../../../domain/trades";
import { completedTradesQuery, tradeOffersQuery, type CompletedTradesBody, type TradeOfferBody } from "../../api/trades";
import { ListLoadFailed } from "../../components/ListStates";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { TabPanel, Tabs } from "../../components/ui/Tabs";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { Handover, TradeListingRow, TradeStatusBadge } from "./TradeParts";
import { lazyCode } from "../../lib/missingCode";

type Tab = "sent" | "received" | "completed";
/** The tab labels of docs/product.md "Trades"; "(n)" becomes the tab's count. */
const TABS: { id: Tab; label: string }[] = [
  { id: "sent", label: "Sendt (n)" },
  { id: "received", label: "Mottatt (n)" },
  { id: "completed", label: "Fullført (n)" },
];
const EMPTY: Record<Tab, { text: string; icon: LucideIcon }> = {
  sent: { text: "Ingen sendte forslag", icon: Send },
  received: { text: "Ingen mottatte forslag", icon: Inbox },
  completed: { text: "Ingen fullførte bytter", icon: Trophy },
};

/** /trade-history "Byttehistorikk" (docs/product.md "Trades"); login required by the router. */
export function TradeHistoryPage() {
  useDocumentTitle("Byttehistorikk");
  const [tab, setTab] = useState<Tab>("sent");
  const tabsId = useId();
  // Each tab is one request (its list and the three counts); the counts shown are the freshest.
  const [counts, setCounts] = useState<TradeHistoryCounts | null>(null);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Byttehistorikk</h1>
      <Tabs
        idBase={tabsId}
        label="Byttehistorikk"
        tabs={TABS.map((t) => ({ id: t.id, label: t.label.replace("(n)", `(${counts ? counts[t.id] : "…"})`) }))}
        value={tab}
        onChange={setTab}
        className="mt-4 grid grid-cols-3 gap-1 rounded-xl bg-stone-100 p-1"
        tabClassName={(selected) =>
          cn(
            "min-h-11 rounded-lg px-2 text-sm font-semibold sm:text-base",
            selected ? "bg-white text-brand-900 shadow-sm" : "text-stone-700 hover:bg-white/60",
          )
        }
      />
      <TabPanel idBase={tabsId} value={tab} className="mt-4">
        {tab === "completed" ? <CompletedList onCounts={setCounts} /> : <OffersList key={tab} direction={tab} onCounts={setCounts} />}
      </TabPanel>
    </div>
  );
}

function useHistoryError(error: unknown) {
  useEffect(() => {
    if (error) toastError("Feil", "Kunne ikke hente byttehistorikk", { id: "trade-history", error });
  }, [error]);
}

function ListBody<T extends { counts: TradeHistoryCounts; items: unknown[]; has_more: boolean }>({
  query,
  tab,
  onCounts,
  children,
}: {
  query: {
    data?: InfiniteData<T>;
    isPending: boolean;
    error: unknown;
    refetch: () => unknown;
    isRefetching: boolean;
    hasNextPage: boolean;
    fetchNextPage: () => unknown;
    isFetchingNextPage: boolean;
  };
  tab: Tab;
  onCounts: (counts: TradeHistoryCounts) => void;
  children: (items: T["items"]) => ReactNode;
}) {
  const lastCounts = query.data?.pages[query.data.pages.length - 1]?.counts;
  useEffect(() => {
    if (lastCounts) onCounts(lastCounts);
  }, [lastCounts, onCounts]);
  useHistoryError(query.error);
  if (query.isPending) return <Spinner label="Laster byttehistorikk..." className="py-12" />;
  if (query.error || !query.data) {
    return (
      <ListLoadFailed onRetry={() => void query.refetch()} retrying={query.isRefetching} error={query.error}>
        Kunne ikke hente byttehistorikk
      </ListLoadFailed>
    );
  }
  const items = query.data.pages.flatMap((p) => p.items) as T["items"];
  if (items.length === 0) {
    const { text, icon: Icon } = EMPTY[tab];
    return (
      <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white p-8 text-center">
        <Icon aria-hidden="true" className="size-8 text-stone-500" />
        <p className="mt-3 text-stone-700">{text}</p>
      </div>
    );
  }
  return (
    <>
      <ul className="space-y-3">{children(items)}</ul>
      {query.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? "Laster..." : "Vis flere"}
          </Button>
        </div>
      ) : null}
    </>
  );
}

function OffersList({ direction, onCounts }: { direction: "sent" | "received"; onCounts: (c: TradeHistoryCounts) => void }) {
  const query = useInfiniteQuery(tradeOffersQuery(direction));
  return (
    <ListBody query={query} tab={direction} onCounts={onCounts}>
      {(items) => (items as TradeOfferBody[]).map((offer) => <OfferCard key={offer.id} offer={offer} sent={direction === "sent"} />)}
    </ListBody>
  );
}

// The completed trades' cards (with the review dialog) load with their tab, not with the page,
// which opens on "Sendt" (decision 102); the import starts with the list's request.
const loadCompletedCard = () => import("./CompletedCard");
const CompletedCard = lazyCode(loadCompletedCard);

function CompletedList({ onCounts }: { onCounts: (c: TradeHistoryCounts) => void }) {
  const query = useInfiniteQuery(completedTradesQuery());
  useEffect(() => {
    // Ahead of the list: a failure is the render's to report (lazyCode).
    void loadCompletedCard().catch(() => undefined);
  }, []);
  return (
    <Suspense fallback={<Spinner label="Laster byttehistorikk..." className="py-12" />}>
      <ListBody query={query} tab="completed" onCounts={onCounts}>
        {(items) => (items as CompletedTradesBody["items"]).map((trade) => <CompletedCard key={trade.id} trade={trade} />)}
      </ListBody>
    </Suspense>
  );
}

function OfferCard({ offer, sent }: { offer: TradeOfferBody; sent: boolean }) {
  const name = offer.other_user.display_name;
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold text-stone-900">
            {sent ? "Sendt til" : "Mottatt fra"} {name}
          </p>
          <p className="text-sm text-stone-700">{formatDate(offer.created_at)}</p>
        </div>
        <TradeStatusBadge offer={offer} />
      </div>
      {offer.message ? (
        <p className="mt-2 rounded-lg bg-stone-50 px-3 py-2 text-sm whitespace-pre-line text-stone-800">{offer.message}</p>
      ) : null}
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TradeListingRow label={sent ? "Du tilbød" : "De tilbød"} listing={offer.offered_listing} />
        <TradeListingRow label={sent ? "Du ville ha" : "De ville ha"} listing={offer.requested_listing} />
      </div>
      {offer.status === "accepted" ? <Handover offer={offer} other={name} /> : null}
      {offer.status === "accepted" || offer.status === "pending" ? (
        <Link
          to={`/chat/${offer.conversation_id}`}
          className="mt-3 inline-flex min-h-11 items-center gap-2 font-semibold text-brand-800 hover:underline"
        >
          <ArrowLeftRight aria-hidden="true" className="size-4" />
          {offer.status === "accepted" ? "Bekreft overleveringen i samtalen" : "Gå til samtalen"}
        </Link>
      ) : null}
    </li>
  );
}
