// The payment method chooser (docs/product.md "Listing page", "Limits and timings"): card/Apple Pay/Google Pay when the
// listing's mode is stripe or marketplace, Vipps for vipps or marketplace, both only when payment is
// enabled; cash on pickup and bank transfer always. Loaded when the buyer taps "Kjøp nå". A listing
// that "Kan sendes" gets "Henting" or "Sending" first (WithShipping.tsx, loaded only for such a
// listing, so the dialog's own load and the listing page's preload list stay as they were).
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { Suspense, useState } from "react";
import { formatPrice } from "../../../../domain/format";
import { PAYMENT_TEXTS } from "../../../../domain/payments";
import { isApiError } from "../../../api/client";
import { browser, startCheckout } from "../../../api/payments";
import { Spinner } from "../../../components/ui/Spinner";
import { toastError, toastSuccess } from "../../../lib/toast";
import { ChoiceCard } from "./ChoiceCard";
import {
  isOnline,
  MethodChoice,
  PayButton,
  paymentOptions,
  type ChooserListing,
  type PaymentParts,
  type StartCheckout,
  type StepProps,
} from "./paymentParts";
import { lazyCode } from "../../../lib/missingCode";

export { paymentOptions, type ChooserListing } from "./paymentParts";

const WithShipping = lazyCode(() => import("./WithShipping"));
const PARTS: PaymentParts = { ChoiceCard, MethodChoice, PayButton, paymentOptions };

export interface PaymentChooserProps {
  listing: ChooserListing;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function PaymentChooser({ listing, open, onOpenChange }: PaymentChooserProps) {
  const [starting, setStarting] = useState(false);
  const size = listing.handover?.includes("shipping") ? (listing.parcel_size ?? null) : null;
  const price = formatPrice(listing.price, false);

  const start: StartCheckout = async (method, shipping, onFields) => {
    setStarting(true);
    try {
      const { url } = await startCheckout(listing.id, method, shipping);
      toastSuccess(PAYMENT_TEXTS.started);
      // The provider's page opens in the same window (docs/product.md "Payments").
      browser.assign(url);
    } catch (error) {
      setStarting(false);
      // "Sending"'s fields the server refused are said at the fields, not in a toast.
      if (isApiError(error) && error.status === 400 && error.fields && onFields?.(error.fields)) return;
      // The server's refusal says why (sold, reserved, …); anything else gets the text of docs/product.md "Error messages".
      const reason =
        isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401 ? error.message : PAYMENT_TEXTS.startFailed;
      toastError(PAYMENT_TEXTS.startFailedTitle, reason, { error });
    }
  };

  const chooseOffline = () => {
    toastSuccess(PAYMENT_TEXTS.offlineChosenTitle, PAYMENT_TEXTS.offlineChosen);
    onOpenChange(false);
  };

  const step: StepProps = { listing, starting, start, chooseOffline };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !starting && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-y-auto overscroll-contain rounded-t-3xl bg-white p-5 pb-[max(1.25rem,env(safe-area-inset-bottom))] shadow-2xl focus:outline-none sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-full sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-3xl">
          <div className="flex items-start justify-between gap-3">
            <div>
              <Dialog.Title className="text-xl font-bold text-stone-900">Velg betalingsmåte</Dialog.Title>
              <Dialog.Description className="mt-1 text-stone-700">
                {listing.title} – <span className="whitespace-nowrap">{price}</span>
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button
                type="button"
                aria-label="Lukk"
                className="-mt-1 -mr-1 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100"
              >
                <X aria-hidden="true" className="size-6" />
              </button>
            </Dialog.Close>
          </div>
          {size ? (
            <Suspense fallback={<Spinner className="py-8" />}>
              <WithShipping {...step} size={size} parts={PARTS} />
            </Suspense>
          ) : (
            <PickUpOnly {...step} />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A listing that is only picked up: the methods and the button, as before "Sending". */
function PickUpOnly({ listing, starting, start, chooseOffline }: StepProps) {
  const options = paymentOptions(listing);
  const [method, setMethod] = useState(options[0]);
  return (
    <>
      <MethodChoice options={options} method={method} onChange={setMethod} disabled={starting} />
      {options.length === 2 ? (
        <p className="mt-3 text-sm text-stone-700">Selgeren tar ikke imot betaling i Lekebytte for denne annonsen.</p>
      ) : null}
      <PayButton
        method={method}
        starting={starting}
        total={formatPrice(listing.price, false)}
        onPress={() => (isOnline(method) ? void start(method, null) : chooseOffline())}
      />
    </>
  );
}
