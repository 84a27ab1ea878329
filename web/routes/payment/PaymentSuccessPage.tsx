import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleX, Undo2 } from "lucide-react";
import { Suspense, useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { formatMinorUnits } from "../../../domain/format";
import { PAYMENT_TEXTS } from "../../../domain/payments";
import { paymentKeys, verifyPayment } from "../../api/payments";
import { Button, buttonClasses } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { FallbackScreen } from "../fallback/FallbackScreen";
import { useOpenConversation } from "./useOpenConversation";
import { lazyCode } from "../../lib/missingCode";

const SignInGate = lazyCode(() => import("../../components/SignInGate"));

/** While the provider has not confirmed yet (webhook on its way), ask again for about half a minute. */
export const VERIFY_POLL_MS = 2000;
export const VERIFY_MAX_POLLS = 15;

/**
 * /payment-success?session_id=…&payment_id=… (docs/product.md "Payments", "States"): verifies the
 * payment, then "Betaling fullført!" with the amount, or "Betalingsfeil". A missing id fails at once.
 * A buyer who cancelled at the provider is no error: Stripe's cancel_url brings `cancelled=1` and the
 * listing's slug, a Vipps payment the buyer aborted verifies as `cancelled` (decision 089).
 */
export function PaymentSuccessPage() {
  useDocumentTitle("Betaling");
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const paymentId = params.get("payment_id") ?? "";
  const session = useSession();
  const complete = sessionId !== "" && paymentId !== "";
  const cancelledSlug = params.get("cancelled") === "1" ? params.get("listing") : null;

  if (cancelledSlug !== null)
    return <PaymentCancelled listingPath={cancelledSlug ? `/annonse/${encodeURIComponent(cancelledSlug)}` : null} />;
  if (!complete) return <PaymentFailed />;
  if (session.status === "loading") return <PageSpinner label={PAYMENT_TEXTS.verifying} />;
  if (session.status === "signed-out") {
    return (
      <Suspense fallback={<PageSpinner />}>
        <SignInGate />
      </Suspense>
    );
  }
  return <Verification sessionId={sessionId} paymentId={paymentId} />;
}

function Verification({ sessionId, paymentId }: { sessionId: string; paymentId: string }) {
  const openConversation = useOpenConversation();
  const queryClient = useQueryClient();
  const queryKey = paymentKeys.verify(sessionId, paymentId);
  const verification = useQuery({
    queryKey,
    queryFn: () => verifyPayment(sessionId, paymentId),
    refetchInterval: (query) =>
      query.state.data?.status === "pending" && query.state.dataUpdateCount < VERIFY_MAX_POLLS ? VERIFY_POLL_MS : false,
    retry: false,
    staleTime: Infinity,
  });
  const result = verification.data;
  const polls = queryClient.getQueryState(queryKey)?.dataUpdateCount ?? 0;
  const gaveUp = result?.status === "pending" && polls >= VERIFY_MAX_POLLS;
  const failed = verification.isError || result?.status === "failed" || gaveUp;
  const completed = result?.status === "completed";

  useEffect(() => {
    if (completed) toastSuccess(PAYMENT_TEXTS.successTitle, PAYMENT_TEXTS.successToast, { id: `payment-${paymentId}` });
  }, [completed, paymentId]);

  if (result?.status === "cancelled") return <PaymentCancelled listingPath={`/listing/${encodeURIComponent(result.listing_id)}`} />;
  if (failed) return <PaymentFailed error={verification.error} />;
  if (!completed) return <PageSpinner label={PAYMENT_TEXTS.verifying} />;

  const contact = () => openConversation(result.conversation_id);

  return (
    <FallbackScreen
      icon={<CircleCheck className="size-8" />}
      title={PAYMENT_TEXTS.successTitle}
      text="Takk for kjøpet! Selgeren har fått beskjed."
    >
      <dl className="w-full rounded-2xl border border-stone-200 bg-white p-4 text-left shadow-sm">
        <dt className="text-sm font-medium text-stone-600">Beløp</dt>
        <dd className="text-2xl font-extrabold text-stone-900">{formatMinorUnits(result.amount_paid ?? 0)}</dd>
        <dt className="mt-3 text-sm font-medium text-stone-600">Transaksjons-ID</dt>
        <dd className="font-mono text-sm break-all text-stone-900">{result.order_id}</dd>
      </dl>
      <Button className="w-full" onClick={contact}>
        {result.role === "seller" ? "Kontakt kjøper" : PAYMENT_TEXTS.contactSeller}
      </Button>
      <Link to={`/betaling-fullfort?session_id=${encodeURIComponent(sessionId)}`} className={buttonClasses("secondary", "md", "w-full")}>
        Se betalingsdetaljer
      </Link>
      <Link to="/" className={buttonClasses("ghost", "md", "w-full")}>
        {PAYMENT_TEXTS.backHome}
      </Link>
    </FallbackScreen>
  );
}

function PaymentFailed({ error }: { error?: unknown }) {
  useEffect(() => {
    toastError(PAYMENT_TEXTS.verifyFailedTitle, PAYMENT_TEXTS.verifyFailed, { id: "payment-verify-failed", error });
  }, [error]);
  return (
    <FallbackScreen icon={<CircleX className="size-8" />} title={PAYMENT_TEXTS.failedTitle} text={PAYMENT_TEXTS.failed}>
      <Link to="/" className={buttonClasses()}>
        {PAYMENT_TEXTS.backHome}
      </Link>
    </FallbackScreen>
  );
}

/** The buyer stopped the payment: nothing was paid, so no error and no toast; back to the listing. */
function PaymentCancelled({ listingPath }: { listingPath: string | null }) {
  return (
    <FallbackScreen icon={<Undo2 className="size-8" />} title={PAYMENT_TEXTS.cancelledTitle} text={PAYMENT_TEXTS.cancelled}>
      {listingPath ? (
        <Link to={listingPath} className={buttonClasses("primary", "md", "w-full")}>
          {PAYMENT_TEXTS.backToListing}
        </Link>
      ) : null}
      <Link to="/" className={buttonClasses(listingPath ? "ghost" : "primary", "md", "w-full")}>
        {PAYMENT_TEXTS.backHome}
      </Link>
    </FallbackScreen>
  );
}
