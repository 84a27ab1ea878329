import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, CircleAlert, CreditCard, ExternalLink } from "lucide-react";
import { useId, useState } from "react";
import { PAYMENT_TEXTS } from "../../../domain/payments";
import { browser, createStripeAccountLink, createStripeDashboardLink, sellerPaymentStatusQuery } from "../../api/payments";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { toastError } from "../../lib/toast";

/**
 * The profile's payments section (docs/product.md "Profile"): connect a Stripe Express account to
 * receive card and Vipps payments; once connected, open the Express dashboard in a new tab and see
 * whether payouts are enabled.
 */
export function PaymentsSection() {
  const headingId = useId();
  const status = useQuery(sellerPaymentStatusQuery());
  const [busy, setBusy] = useState(false);

  const connect = async () => {
    setBusy(true);
    try {
      const { url } = await createStripeAccountLink();
      browser.assign(url);
    } catch (error) {
      toastError("Feil", PAYMENT_TEXTS.stripeConnectFailed, { error });
      setBusy(false);
    }
  };

  const openDashboard = async () => {
    // Open the tab within the click (popup blockers), then send it to the single-use login link.
    const tab = window.open("", "_blank");
    setBusy(true);
    try {
      const { url } = await createStripeDashboardLink();
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        browser.assign(url);
      }
    } catch (error) {
      tab?.close();
      toastError("Feil", PAYMENT_TEXTS.stripeConnectFailed, { error });
    } finally {
      setBusy(false);
    }
  };

  const s = status.data;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <div className="flex items-start gap-3">
        <div aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-sky-50 text-sky-800">
          <CreditCard className="size-5" />
        </div>
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-lg font-bold text-stone-900">
            Betaling
          </h2>
          {status.isPending ? (
            <Spinner className="mt-2 justify-start" />
          ) : status.isError ? (
            <p className="mt-2 text-stone-700">Kunne ikke hente betalingsstatus akkurat nå. Last siden på nytt for å prøve igjen.</p>
          ) : !s?.connected ? (
            <div className="mt-1 space-y-3">
              <p className="text-stone-700">
                Koble til en Stripe-konto for å ta imot betaling med kort og Vipps direkte i Lekebytte. Pengene utbetales til bankkontoen
                din.
              </p>
              <Button onClick={() => void connect()} disabled={busy} aria-busy={busy || undefined}>
                {busy ? "Kobler til..." : "Koble til Stripe"}
              </Button>
            </div>
          ) : !s.details_submitted ? (
            <div className="mt-1 space-y-3">
              <p className="text-stone-700">Stripe-kontoen din er opprettet, men registreringen er ikke fullført ennå.</p>
              <Button onClick={() => void connect()} disabled={busy} aria-busy={busy || undefined}>
                {busy ? "Kobler til..." : "Fullfør registreringen hos Stripe"}
              </Button>
            </div>
          ) : (
            <div className="mt-1 space-y-3">
              <p className="flex items-center gap-2 font-medium text-stone-900">
                {s.payouts_enabled ? (
                  <>
                    <CheckCircle2 aria-hidden="true" className="size-5 text-emerald-700" /> Utbetalinger er aktivert
                  </>
                ) : (
                  <>
                    <CircleAlert aria-hidden="true" className="size-5 text-amber-700" /> Utbetalinger er ikke aktivert ennå
                  </>
                )}
              </p>
              <p className="text-stone-700">
                {s.charges_enabled
                  ? "Kjøpere kan betale med kort og Vipps i annonsene dine. Du kan endre dette for hver annonse."
                  : "Stripe må godkjenne kontoen før kjøpere kan betale deg."}
              </p>
              <Button variant="secondary" onClick={() => void openDashboard()} disabled={busy}>
                Åpne Stripe-dashbord
                <ExternalLink aria-hidden="true" className="size-4" />
                <span className="sr-only">(åpnes i ny fane)</span>
              </Button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
