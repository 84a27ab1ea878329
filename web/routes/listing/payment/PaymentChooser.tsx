// The payment method chooser (docs/product.md "Listing page", "Limits and timings"): card/Apple Pay/Google Pay when the
// listing's mode is stripe or marketplace, Vipps for vipps or marketplace, both only when payment is
// enabled; cash on pickup and bank transfer always. Loaded when the buyer taps "Kjøp nå".
import * as Dialog from "@radix-ui/react-dialog";
import { Banknote, CreditCard, Landmark, Smartphone, X } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { formatPrice } from "../../../../domain/format";
import { onlineMethodsFor, PAYMENT_TEXTS, type PaymentFacts, type PaymentMethod } from "../../../../domain/payments";
import type { ListingPage } from "../../../api/listings";
import { isApiError } from "../../../api/client";
import { browser, startCheckout } from "../../../api/payments";
import { Button } from "../../../components/ui/Button";
import { cn } from "../../../lib/cn";
import { toastError, toastSuccess } from "../../../lib/toast";

export type ChooserListing = Pick<ListingPage, "id" | "title" | "price" | "is_free" | "payment_enabled" | "pricing_mode">;

interface Option {
  method: PaymentMethod;
  label: string;
  hint: string;
  icon: ReactNode;
}

const OPTIONS: Record<PaymentMethod, Option> = {
  card: {
    method: "card",
    label: "Kort, Apple Pay eller Google Pay",
    hint: "Trygg betaling med Stripe",
    icon: <CreditCard className="size-6" />,
  },
  vipps: { method: "vipps", label: "Vipps", hint: "Betal i Vipps-appen", icon: <Smartphone className="size-6" /> },
  cash: { method: "cash", label: "Kontant ved henting", hint: "Betal selgeren når du henter", icon: <Banknote className="size-6" /> },
  bank_transfer: {
    method: "bank_transfer",
    label: "Bankoverføring",
    hint: "Avtal kontonummer med selgeren",
    icon: <Landmark className="size-6" />,
  },
};

/** The methods offered for a listing, online ones first. */
export function paymentOptions(listing: PaymentFacts): PaymentMethod[] {
  return [...onlineMethodsFor(listing), "cash", "bank_transfer"];
}

export interface PaymentChooserProps {
  listing: ChooserListing;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function PaymentChooser({ listing, open, onOpenChange }: PaymentChooserProps) {
  const options = paymentOptions(listing);
  const [method, setMethod] = useState<PaymentMethod>(options[0]);
  const [starting, setStarting] = useState(false);
  const name = useId();
  const online = method === "card" || method === "vipps";
  const price = formatPrice(listing.price, false);

  const confirm = async () => {
    if (method === "card" || method === "vipps") {
      setStarting(true);
      try {
        const { url } = await startCheckout(listing.id, method);
        toastSuccess(PAYMENT_TEXTS.started);
        // The provider's page opens in the same window (docs/product.md "Payments").
        browser.assign(url);
      } catch (error) {
        // The server's refusal says why (sold, reserved, …); anything else gets the text of docs/product.md "Error messages".
        const reason =
          isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401
            ? error.message
            : PAYMENT_TEXTS.startFailed;
        toastError(PAYMENT_TEXTS.startFailedTitle, reason, { error });
        setStarting(false);
      }
      return;
    }
    toastSuccess(PAYMENT_TEXTS.offlineChosenTitle, PAYMENT_TEXTS.offlineChosen);
    onOpenChange(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !starting && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-y-auto rounded-t-3xl bg-white p-5 shadow-2xl focus:outline-none sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-full sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-3xl">
          <div className="flex items-start justify-between gap-3">
            <div>
              <Dialog.Title className="text-xl font-bold text-stone-900">Velg betalingsmåte</Dialog.Title>
              <Dialog.Description className="mt-1 text-stone-700">
                {listing.title} – {price}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button
                type="button"
                aria-label="Lukk"
                className="-mt-1 -mr-1 inline-flex size-11 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100"
              >
                <X aria-hidden="true" className="size-6" />
              </button>
            </Dialog.Close>
          </div>
          <fieldset className="mt-4 space-y-2" disabled={starting}>
            <legend className="sr-only">Betalingsmåte</legend>
            {options.map((m) => {
              const o = OPTIONS[m];
              return (
                <label key={m} className="block">
                  <input type="radio" name={name} value={m} checked={method === m} onChange={() => setMethod(m)} className="peer sr-only" />
                  <span
                    className={cn(
                      "flex min-h-14 cursor-pointer items-center gap-3 rounded-xl border border-stone-400 px-3 py-2 text-stone-900",
                      "peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:ring-2 peer-checked:ring-brand-700",
                      "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
                    )}
                  >
                    <span aria-hidden="true" className="text-brand-800">
                      {o.icon}
                    </span>
                    <span className="flex flex-col">
                      <span className="font-semibold">{o.label}</span>
                      <span className="text-sm text-stone-700">{o.hint}</span>
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {options.length === 2 ? (
            <p className="mt-3 text-sm text-stone-700">Selgeren tar ikke imot betaling i Lekebytte for denne annonsen.</p>
          ) : null}
          <Button size="lg" className="mt-5 w-full" onClick={() => void confirm()} disabled={starting} aria-busy={starting || undefined}>
            {starting ? "Starter betaling..." : online ? `Gå til betaling – ${price}` : "Velg"}
          </Button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
