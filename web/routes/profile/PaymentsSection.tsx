import { CreditCard } from "lucide-react";
import { useId } from "react";

/**
 * Where sellers will connect a payment account (spec part 1 §2 "/profile"). Payments arrive with
 * their own issue; until then this says so plainly and offers no button that does nothing.
 */
export function PaymentsSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <div className="flex items-start gap-3">
        <div aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-sky-50 text-sky-800">
          <CreditCard className="size-5" />
        </div>
        <div>
          <h2 id={headingId} className="text-lg font-bold text-stone-900">
            Betaling
          </h2>
          <p className="mt-1 text-stone-700">
            Snart kan du koble til en betalingskonto og ta imot betaling med kort direkte i Lekebytte. Denne muligheten kommer
            snart – frem til da avtaler du betaling med kjøperen selv.
          </p>
        </div>
      </div>
    </section>
  );
}
