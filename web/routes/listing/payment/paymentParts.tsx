// What the buy dialog's two ways share (PaymentChooser.tsx for a listing that is picked up only,
// WithShipping.tsx for one that "Kan sendes"): the payment methods, their radio group and the button.
import { Banknote, CreditCard, Landmark, Smartphone } from "lucide-react";
import { useId, type ReactNode } from "react";
import { onlineMethodsFor, type OnlinePaymentMethod, type PaymentFacts, type PaymentMethod } from "../../../../domain/payments";
import type { ListingPage } from "../../../api/listings";
import type { ShippingChoice } from "../../../api/payments";
import { Button } from "../../../components/ui/Button";
import { ChoiceCard } from "./ChoiceCard";

/** Without `handover` (older callers), a listing is picked up only, as every listing was before shipping. */
export type ChooserListing = Pick<ListingPage, "id" | "title" | "price" | "is_free" | "payment_enabled" | "pricing_mode"> &
  Partial<Pick<ListingPage, "handover" | "parcel_size">>;

/** The dialog's way of starting a checkout; `onFields` shows a 400's fields where they belong (true when it did). */
export type StartCheckout = (
  method: OnlinePaymentMethod,
  shipping: ShippingChoice | null,
  onFields?: (fields: Record<string, string>) => boolean,
) => Promise<void>;

/**
 * The dialog's own parts, handed to the shipping step as a prop rather than imported by it: the
 * chunk the listing page preloads for "Kjøp nå" then keeps its one export (decision 152).
 */
export interface PaymentParts {
  ChoiceCard: typeof ChoiceCard;
  MethodChoice: typeof MethodChoice;
  PayButton: typeof PayButton;
  paymentOptions: typeof paymentOptions;
}

export interface StepProps {
  listing: ChooserListing;
  starting: boolean;
  start: StartCheckout;
  /** Cash or bank transfer: agreed with the seller, nothing sent. */
  chooseOffline: () => void;
}

const OPTIONS: Record<PaymentMethod, { label: string; hint: string; icon: ReactNode }> = {
  card: { label: "Kort, Apple Pay eller Google Pay", hint: "Trygg betaling med Stripe", icon: <CreditCard className="size-6" /> },
  vipps: { label: "Vipps", hint: "Betal i Vipps-appen", icon: <Smartphone className="size-6" /> },
  cash: { label: "Kontant ved henting", hint: "Betal selgeren når du henter", icon: <Banknote className="size-6" /> },
  bank_transfer: { label: "Bankoverføring", hint: "Avtal kontonummer med selgeren", icon: <Landmark className="size-6" /> },
};

/** The methods offered for a listing, online ones first. */
export function paymentOptions(listing: PaymentFacts): PaymentMethod[] {
  return [...onlineMethodsFor(listing), "cash", "bank_transfer"];
}

export const isOnline = (method: PaymentMethod): method is OnlinePaymentMethod => method === "card" || method === "vipps";

export function MethodChoice({
  options,
  method,
  onChange,
  disabled,
  legend,
  note,
}: {
  options: PaymentMethod[];
  method: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  disabled: boolean;
  /** Shown when the dialog has more than one group; otherwise read by screen readers only. */
  legend?: string;
  note?: string;
}) {
  const name = useId();
  return (
    <fieldset className={legend ? "mt-5 space-y-2" : "mt-4 space-y-2"} disabled={disabled}>
      <legend className={legend ? "mb-2 text-base font-bold text-stone-900" : "sr-only"}>{legend ?? "Betalingsmåte"}</legend>
      {note ? <p className="text-sm text-stone-700">{note}</p> : null}
      {options.map((m) => (
        <ChoiceCard
          key={m}
          name={name}
          value={m}
          checked={method === m}
          onChange={() => onChange(m)}
          icon={OPTIONS[m].icon}
          label={OPTIONS[m].label}
          detail={OPTIONS[m].hint}
        />
      ))}
    </fieldset>
  );
}

/** "Gå til betaling – {totalt}" for card and Vipps, "Velg" for cash and bank transfer. */
export function PayButton({
  method,
  starting,
  total,
  onPress,
}: {
  method: PaymentMethod;
  starting: boolean;
  total: string;
  onPress: () => void;
}) {
  return (
    <Button size="lg" className="mt-5 w-full" onClick={onPress} disabled={starting} aria-busy={starting || undefined}>
      {starting ? "Starter betaling..." : isOnline(method) ? `Gå til betaling – ${total}` : "Velg"}
    </Button>
  );
}
