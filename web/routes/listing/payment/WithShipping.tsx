// The buy dialog for a listing that "Kan sendes" (decision 145): "Henting" or "Sending" first (only
// "Sending" when the toy is not picked up), then for "Sending" the shipping's choices, trygg betaling
// only (the parcel is booked once the money is held), and "Leken", "Frakt" and "Totalt".
import { Handshake, Package } from "lucide-react";
import { useId, useState } from "react";
import { HANDOVER_CHECKOUT_LABELS, shippingOffersFor, type HandoverMode, type ParcelSize } from "../../../../domain/carriers";
import { formatPrice } from "../../../../domain/format";
import { onlineMethodsFor, type PaymentMethod } from "../../../../domain/payments";
import type { PaymentParts, StepProps } from "./paymentParts";
import { ShippingFields, shippingErrorsOf, useShippingForm } from "./ShippingChoice";

export default function WithShipping({
  listing,
  size,
  starting,
  start,
  chooseOffline,
  parts,
}: StepProps & { size: ParcelSize; parts: PaymentParts }) {
  const { ChoiceCard, MethodChoice, PayButton, paymentOptions } = parts;
  const name = useId();
  const pickUp = !listing.handover || listing.handover.includes("in_person");
  const modes: HandoverMode[] = pickUp ? ["in_person", "shipping"] : ["shipping"];
  const [handover, setHandover] = useState<HandoverMode | null>(pickUp ? null : "shipping");
  const form = useShippingForm(size);
  const sending = handover === "shipping";
  const options = sending ? onlineMethodsFor(listing) : paymentOptions(listing);
  const [chosen, setChosen] = useState<PaymentMethod>(options[0]);
  const method = options.includes(chosen) ? chosen : options[0];
  const toy = listing.price ?? 0;
  const shipping = form.offer.priceOre / 100;
  const total = sending ? toy + shipping : toy;
  const cheapest = shippingOffersFor(size)[0];

  const pay = async () => {
    if (method !== "card" && method !== "vipps") return chooseOffline();
    if (!sending) return start(method, null);
    // The recipient is checked by the checkout's own schema on the server, whose 400 names each
    // field: the dialog does not load zod for it (decision 152). A point not chosen is said here.
    const missing = form.missingPoint();
    if (Object.keys(missing).length > 0) return form.showErrors(missing);
    await start(method, form.choice(), (fields) => {
      const shown = shippingErrorsOf(Object.entries(fields));
      if (Object.keys(shown).length === 0) return false;
      form.showErrors(shown);
      return true;
    });
  };

  return (
    <fieldset disabled={starting} className="m-0 min-w-0 border-0 p-0">
      <fieldset className="mt-4 space-y-2">
        <legend className="mb-2 text-base font-bold text-stone-900">Hvordan vil du få leken?</legend>
        {modes.map((mode) => (
          <ChoiceCard
            key={mode}
            name={name}
            value={mode}
            checked={handover === mode}
            onChange={() => setHandover(mode)}
            icon={mode === "shipping" ? <Package className="size-6" /> : <Handshake className="size-6" />}
            label={HANDOVER_CHECKOUT_LABELS[mode]}
            detail={
              mode === "shipping"
                ? `Sendes med posten, frakt fra ${formatPrice(cheapest.priceOre / 100, false)}`
                : "Du henter leken hos selgeren"
            }
          />
        ))}
      </fieldset>
      {handover === null ? null : (
        <>
          {sending ? <ShippingFields form={form} ChoiceCard={ChoiceCard} /> : null}
          <MethodChoice
            options={options}
            method={method}
            onChange={setChosen}
            disabled={starting}
            legend="Betalingsmåte"
            note={sending ? "Sending betales med trygg betaling: kort eller Vipps." : undefined}
          />
          {sending ? (
            <dl className="mt-5 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-stone-200 pt-4 text-stone-900">
              <dt>Leken</dt>
              <dd className="text-right">{formatPrice(toy, false)}</dd>
              <dt>Frakt</dt>
              <dd className="text-right">{formatPrice(shipping, false)}</dd>
              <dt className="font-bold">Totalt</dt>
              <dd className="text-right font-bold">{formatPrice(total, false)}</dd>
            </dl>
          ) : null}
          <PayButton method={method} starting={starting} total={formatPrice(total, false)} onPress={() => void pay()} />
        </>
      )}
    </fieldset>
  );
}
