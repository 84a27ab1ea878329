// The listing's payment settings: whether buyers can pay in Lekebytte and how. Shown only
// to a seller whose Stripe account can take charges, and only for listings with a price; the server
// ignores these fields for everyone else.
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { PRICING_MODE_LABELS, SELLER_PRICING_MODES } from "../../../domain/payments";
import { sellerPaymentStatusQuery } from "../../api/payments";
import { cn } from "../../lib/cn";
import type { ListingFormValues } from "./ListingFields";

export function PaymentFields() {
  const status = useQuery(sellerPaymentStatusQuery());
  const { register, control } = useFormContext<ListingFormValues>();
  const [isFree, enabled] = useWatch({ control, name: ["is_free", "payment_enabled"] });
  const id = useId();
  if (!status.data?.charges_enabled || isFree) return null;
  return (
    <fieldset className="min-w-0 space-y-3 rounded-2xl border border-stone-200 p-4">
      <legend className="px-1 text-sm font-medium text-stone-800">Betaling i Lekebytte</legend>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 size-6 shrink-0 accent-brand-700"
          aria-describedby={`${id}-hint`}
          {...register("payment_enabled")}
        />
        <div>
          <label htmlFor={id} className="font-medium text-stone-900">
            Ta imot betaling i Lekebytte
          </label>
          <p id={`${id}-hint`} className="text-sm text-stone-600">
            Kjøpere betaler trygt med kort eller Vipps, og pengene utbetales til Stripe-kontoen din.
          </p>
        </div>
      </div>
      {enabled ? (
        <div role="radiogroup" aria-label="Betalingsmåter" className="grid gap-2 sm:grid-cols-3">
          {SELLER_PRICING_MODES.map((mode) => (
            <label key={mode} className="min-h-11">
              <input type="radio" value={mode} className="peer sr-only" {...register("pricing_mode")} />
              <span
                className={cn(
                  "flex h-full min-h-11 cursor-pointer items-center justify-center rounded-xl border border-stone-400 bg-white px-3 py-2 text-center font-medium text-stone-900",
                  "peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:ring-2 peer-checked:ring-brand-700",
                  "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 hover:border-brand-700",
                )}
              >
                {PRICING_MODE_LABELS[mode]}
              </span>
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}
