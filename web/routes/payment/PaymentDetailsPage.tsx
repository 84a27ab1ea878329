import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, ShieldCheck } from "lucide-react";
import { Suspense, useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { PAYMENT_TEXTS, shortOrderId } from "../../../domain/payments";
import { isApiError } from "../../api/client";
import { paymentDetailsQuery, paymentKeys, type OrderView, type PaymentDetails } from "../../api/payments";
import { SellerCard } from "../../components/SellerCard";
import { Badge } from "../../components/ui/Badge";
import { Button, buttonClasses } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { firstImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { FallbackScreen } from "../fallback/FallbackScreen";
import { orderText } from "./orderText";
import { useOpenConversation } from "./useOpenConversation";
import { lazyCode } from "../../lib/missingCode";

const SignInGate = lazyCode(() => import("../../components/SignInGate"));
// Only a sent order has a parcel to show: its code loads with it, not with every payment's page.
const ShipmentDetails = lazyCode(() => import("./ShipmentDetails").then((m) => ({ default: m.ShipmentDetails })));

/** The server's not-found texts are shown as they are; anything else is "Kunne ikke hente betalingsdetaljer". */
const SHOWN_AS_IS = new Set<string>([PAYMENT_TEXTS.orderNotFound, PAYMENT_TEXTS.listingNotFound, PAYMENT_TEXTS.noSessionId]);

/** /betaling-fullfort?session_id=… "Betalingsdetaljer" (docs/product.md "Payments"). Buyer and seller only. */
export function PaymentDetailsPage() {
  useDocumentTitle(PAYMENT_TEXTS.detailsTitle);
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const session = useSession();

  if (!sessionId) return <DetailsError message={PAYMENT_TEXTS.noSessionId} />;
  if (session.status === "loading") return <PageSpinner />;
  if (session.status === "signed-out") {
    return (
      <Suspense fallback={<PageSpinner />}>
        <SignInGate />
      </Suspense>
    );
  }
  return <Details sessionId={sessionId} signedIn />;
}

function Details({ sessionId, signedIn }: { sessionId: string; signedIn: boolean }) {
  const openConversation = useOpenConversation();
  const { data, error } = useQuery({ ...paymentDetailsQuery(sessionId), retry: false });
  const queryClient = useQueryClient();
  const showOrder = (order: OrderView) =>
    queryClient.setQueryData<PaymentDetails>(paymentKeys.details(sessionId), (details) => (details ? { ...details, order } : details));

  useEffect(() => {
    if (data && !data.seller) console.warn("Payment details: the seller's profile is missing", sessionId);
  }, [data, sessionId]);

  if (error) {
    const message = isApiError(error) && SHOWN_AS_IS.has(error.message) ? error.message : PAYMENT_TEXTS.detailsFailed;
    return <DetailsError message={message} error={error} />;
  }
  if (!data) return <PageSpinner />;

  const image = firstImageUrl(data.listing?.images) ?? PLACEHOLDER_IMAGE;
  const sellerName = data.seller ? data.seller.display_name?.trim() || "Anonym" : PAYMENT_TEXTS.unknownSeller;
  const contact = () => openConversation(data.conversation_id);

  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">{PAYMENT_TEXTS.detailsTitle}</h1>
      <article className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
        <div className="flex gap-4 p-4">
          <img src={image} alt="" width={96} height={96} className="size-24 shrink-0 rounded-xl bg-stone-100 object-cover" />
          <div className="min-w-0">
            <Badge tone="free">{PAYMENT_TEXTS.paid}</Badge>
            <h2 className="mt-1 text-lg leading-snug font-bold break-words text-stone-900">
              {data.listing ? (
                <Link to={`/annonse/${encodeURIComponent(data.listing.seo_slug)}`} className="hover:underline">
                  {data.listing.title}
                </Link>
              ) : (
                PAYMENT_TEXTS.listingNotFound
              )}
            </h2>
            <p className="mt-1 text-2xl font-extrabold text-brand-800">{formatMinorUnits(data.amount)}</p>
          </div>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 border-t border-stone-200 p-4 text-stone-800">
          <dt className="font-medium text-stone-600">Transaksjons-ID</dt>
          <dd className="font-mono" title={data.order_id}>
            {shortOrderId(data.order_id)}
          </dd>
          <dt className="font-medium text-stone-600">Tidspunkt</dt>
          <dd>
            <time dateTime={data.paid_at}>{formatDateTime(data.paid_at)}</time>
          </dd>
          <dt className="font-medium text-stone-600">Betalingsmåte</dt>
          <dd>{data.provider === "card" ? "Kort" : "Vipps"}</dd>
        </dl>
      </article>

      {data.order ? (
        // Trygg betaling (decision 105): where the buyer's money is now.
        <p
          role="status"
          className="flex items-start gap-2 rounded-2xl border border-brand-200 bg-brand-50 p-4 font-semibold text-brand-900"
        >
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span>{orderText(data.order)}</span>
        </p>
      ) : null}
      {data.order?.shipment ? (
        <Suspense fallback={null}>
          <ShipmentDetails
            order={{ ...data.order, shipment: data.order.shipment }}
            onRetried={showOrder}
            className="rounded-2xl border border-stone-200 bg-white p-4 text-base shadow-sm"
          />
        </Suspense>
      ) : null}

      <SellerCard name={sellerName}>{PAYMENT_TEXTS.sellerNotified}</SellerCard>

      <div className="flex flex-col gap-2 sm:flex-row">
        <Button className="flex-1" onClick={contact} disabled={!signedIn}>
          {data.role === "seller" ? "Kontakt kjøper" : PAYMENT_TEXTS.contactSeller}
        </Button>
        <Link to="/" className={buttonClasses("secondary", "md", "flex-1")}>
          {PAYMENT_TEXTS.backHome}
        </Link>
      </div>
    </div>
  );
}

function DetailsError({ message, error }: { message: string; error?: unknown }) {
  useEffect(() => {
    toastError("Feil", message, { id: "payment-details", error });
  }, [message, error]);
  return (
    <FallbackScreen icon={<CircleAlert className="size-8" />} title="Feil" text={message}>
      <Link to="/" className={buttonClasses()}>
        {PAYMENT_TEXTS.backHome}
      </Link>
    </FallbackScreen>
  );
}
