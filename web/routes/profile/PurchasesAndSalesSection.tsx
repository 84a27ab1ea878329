import { ORDER_STATE_LABELS } from "../../../domain/order-texts";
import * as Tabs from "@radix-ui/react-tabs";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { MessageCircle, Receipt } from "lucide-react";
import { useId } from "react";
import { Link } from "../../components/Link";
import { formatDate, formatMinorUnits } from "../../../domain/format";
import { paymentRecordsQuery, type PaymentRecord } from "../../api/payments";
import { Spinner } from "../../components/ui/Spinner";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";
import { ErrorCode } from "../../components/ErrorCode";

const METHOD = { card: "Kort", vipps: "Vipps" } as const;

const tabClasses =
  "min-h-11 flex-1 rounded-lg px-3 text-base font-semibold text-stone-700 data-[state=active]:bg-white data-[state=active]:text-brand-900 data-[state=active]:shadow-sm";

/** The buyer's purchases and the seller's sales, each linking to its details and conversation. */
export function PurchasesAndSalesSection() {
  const headingId = useId();
  const purchases = useQuery(paymentRecordsQuery("purchases"));
  const sales = useQuery(paymentRecordsQuery("sales"));
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Kjøp og salg
      </h2>
      <Tabs.Root defaultValue="purchases" className="mt-3">
        <Tabs.List aria-label="Kjøp og salg" className="flex gap-1 rounded-xl bg-stone-100 p-1">
          <Tabs.Trigger value="purchases" className={tabClasses}>
            Mine kjøp{purchases.data ? ` (${purchases.data.length})` : ""}
          </Tabs.Trigger>
          <Tabs.Trigger value="sales" className={tabClasses}>
            Mine salg{sales.data ? ` (${sales.data.length})` : ""}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="purchases" className="mt-3">
          <PaymentRecordList query={purchases} side="purchases" />
        </Tabs.Content>
        <Tabs.Content value="sales" className="mt-3">
          <PaymentRecordList query={sales} side="sales" />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function PaymentRecordList({ query, side }: { query: UseQueryResult<PaymentRecord[]>; side: "purchases" | "sales" }) {
  if (query.isPending) return <Spinner className="justify-start py-2" />;
  if (query.isError)
    return (
      <>
        <p className="text-stone-700">{side === "purchases" ? "Kunne ikke hente kjøp." : "Kunne ikke hente salg."}</p>
        <ErrorCode error={query.error} className="mt-1" />
      </>
    );
  if (query.data.length === 0) return <p className="text-stone-700">{side === "purchases" ? "Ingen kjøp ennå." : "Ingen salg ennå."}</p>;
  return (
    <ul className="divide-y divide-stone-200">
      {query.data.map((t) => (
        <li key={t.order_id} className="flex gap-3 py-3">
          <img
            src={firstImageUrl(t.listing.images) ?? PLACEHOLDER_IMAGE}
            alt=""
            width={64}
            height={64}
            loading="lazy"
            className="size-16 shrink-0 rounded-lg bg-stone-100 object-cover"
          />
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold text-stone-900">{t.listing.title}</p>
            <p className="text-sm text-stone-700">
              {formatMinorUnits(t.amount)} · {METHOD[t.provider]} · {formatDate(t.paid_at)}
            </p>
            <p className="text-sm text-stone-700">
              {side === "purchases" ? "Selger" : "Kjøper"}: {t.counterpart_name?.trim() || "Anonym"}
            </p>
            <p className="text-sm font-semibold text-brand-800">{ORDER_STATE_LABELS[t.state]}</p>
            {side === "sales" && t.seller_payout === "owed" ? (
              <p className="text-sm text-stone-700">Vipps-beløpet utbetales til deg av Lekebytte.</p>
            ) : null}
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm font-semibold">
              <Link
                to={`/betaling-fullfort?session_id=${encodeURIComponent(t.session_id)}`}
                aria-label={`Betalingsdetaljer for ${t.listing.title}`}
                className="inline-flex min-h-9 items-center gap-1 text-brand-800 underline-offset-2 hover:underline"
              >
                <Receipt aria-hidden="true" className="size-4" />
                Betalingsdetaljer
              </Link>
              {t.conversation_id ? (
                <Link
                  to={`/chat/${t.conversation_id}`}
                  aria-label={`Samtale om ${t.listing.title}`}
                  className="inline-flex min-h-9 items-center gap-1 text-brand-800 underline-offset-2 hover:underline"
                >
                  <MessageCircle aria-hidden="true" className="size-4" />
                  Samtale
                </Link>
              ) : null}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
