// "Sending" in the buy dialog (docs/decisions/145-shipping-rules.md): the ways a parcel of the
// listing's size can go, where it goes (prefilled from the buyer's own profile), and for a parcel
// locker or pickup point the nearest ones to the typed postal code. Loaded with the dialog.
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from "react";
import {
  CARRIER_LABELS,
  DELIVERY_METHOD_LABELS,
  leadTimeText,
  shippingOffersFor,
  type ParcelSize,
  type ShippingOffer,
} from "../../../../domain/carriers";
import { formatNumber, formatPrice } from "../../../../domain/format";
import { profileQuery } from "../../../api/account";
import { isApiError } from "../../../api/client";
import type { ShippingChoice } from "../../../api/payments";
import { pickupPointsQuery, type PickupDelivery } from "../../../api/shipping";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import type { ChoiceCard as ChoiceCardComponent } from "./ChoiceCard";

const RECIPIENT_FIELDS = ["name", "address_line", "postal_code", "phone"] as const;
type RecipientField = (typeof RECIPIENT_FIELDS)[number];
type Recipient = Record<RecipientField, string>;

/** Where a refusal is shown, in the order the dialog shows them (the first one gets the focus). */
export const SHIPPING_FIELDS = ["offer", ...RECIPIENT_FIELDS, "pickup_point_id"] as const;
export type ShippingField = (typeof SHIPPING_FIELDS)[number];
export type ShippingErrors = Partial<Record<ShippingField, string>>;

/**
 * The field a refusal belongs to, from its key in the checkout's answer: the schema's paths
 * ("shipping.recipient.phone", "shipping" alone when the choice is missing) or the checkout's own
 * checks, which name the field inside the choice ("recipient.postal_code", "delivery",
 * "pickup_point_id"); null for the rest of the checkout ("method", "listing_id").
 */
export function shippingFieldOf(key: string): ShippingField | null {
  const path = key.split(".");
  const [first, second] = path[0] === "shipping" ? path.slice(1) : path;
  if (path[0] === "shipping" && first === undefined) return "offer";
  if (first === "carrier" || first === "delivery") return "offer";
  if (first === "pickup_point_id") return "pickup_point_id";
  if (first === "recipient") return (RECIPIENT_FIELDS as readonly string[]).includes(second) ? (second as RecipientField) : "name";
  return null;
}

/** Every issue's field once, the first message each. */
export function shippingErrorsOf(paths: [string, string][]): ShippingErrors {
  const errors: ShippingErrors = {};
  for (const [path, message] of paths) {
    const field = shippingFieldOf(path);
    if (field) errors[field] ??= message;
  }
  return errors;
}

const offerKey = (o: ShippingOffer) => `${o.carrier}:${o.method}`;
const needsPoint = (o: ShippingOffer): o is ShippingOffer & { method: PickupDelivery } => o.method !== "mailbox";
const POSTAL_CODE_RE = /^\d{4}$/;

const POINT_WORDS: Record<PickupDelivery, { choose: string; many: string; missing: string }> = {
  parcel_locker: { choose: "Velg pakkeautomat", many: "pakkeautomater", missing: "Velg en pakkeautomat." },
  pickup_point: { choose: "Velg hentested", many: "hentesteder", missing: "Velg et hentested." },
};

/** The "Sending" part's state: the chosen offer, the recipient, the point, and the refusals shown. */
export function useShippingForm(size: ParcelSize) {
  const offers = useMemo(() => shippingOffersFor(size), [size]);
  const [chosenKey, setChosenKey] = useState(() => offerKey(offers[0]));
  const offer = offers.find((o) => offerKey(o) === chosenKey) ?? offers[0];
  const [recipient, setRecipient] = useState<Recipient>({ name: "", address_line: "", postal_code: "", phone: "" });
  const [pickupPointId, setPickupPointId] = useState<string | null>(null);
  const [errors, setErrors] = useState<ShippingErrors>({});
  const [focusPending, setFocusPending] = useState(false);
  const typed = useRef(new Set<RecipientField>());
  const fields = useRef<Partial<Record<ShippingField, HTMLElement | null>>>({});

  // The buyer's own name, street address and postal code, where the profile has them and the
  // buyer has not typed there yet.
  const profile = useQuery(profileQuery()).data;
  useEffect(() => {
    if (!profile) return;
    const known: Partial<Recipient> = {
      name: profile.display_name ?? "",
      address_line: profile.street_address ?? "",
      postal_code: profile.postal_code ?? "",
    };
    setRecipient((current) => {
      const next = { ...current };
      for (const field of RECIPIENT_FIELDS) if (!typed.current.has(field) && known[field]) next[field] = known[field];
      return next;
    });
  }, [profile]);

  // The focus moves once the refusals are on screen and the dialog's fields are enabled again.
  useEffect(() => {
    if (!focusPending) return;
    setFocusPending(false);
    const first = SHIPPING_FIELDS.find((f) => errors[f]);
    if (first) fields.current[first]?.focus();
  }, [focusPending, errors]);

  const clearError = useCallback((field: ShippingField) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e)), []);
  // Stable: the point list chooses its first point in an effect that depends on it.
  const choosePoint = useCallback(
    (id: string | null) => {
      setPickupPointId(id);
      if (id) clearError("pickup_point_id");
    },
    [clearError],
  );

  return {
    offers,
    offer,
    recipient,
    pickupPointId,
    errors,
    fields,
    chooseOffer(o: ShippingOffer) {
      setChosenKey(offerKey(o));
      clearError("offer");
      clearError("pickup_point_id");
    },
    type(field: RecipientField, value: string) {
      typed.current.add(field);
      setRecipient((r) => ({ ...r, [field]: value }));
      clearError(field);
    },
    choosePoint,
    /** What the checkout gets, as typed (the schema cleans it on both sides). */
    choice(): ShippingChoice {
      return {
        carrier: offer.carrier,
        delivery: offer.method,
        pickup_point_id: needsPoint(offer) ? pickupPointId : null,
        recipient: { ...recipient },
      };
    },
    /** The refusals the browser can tell before sending: a point not chosen. */
    missingPoint(): ShippingErrors {
      return needsPoint(offer) && !pickupPointId ? { pickup_point_id: POINT_WORDS[offer.method].missing } : {};
    },
    /** Show these refusals and move the focus to the first. */
    showErrors(next: ShippingErrors) {
      setErrors(next);
      setFocusPending(true);
    },
  };
}

export type ShippingForm = ReturnType<typeof useShippingForm>;

/**
 * The offers, the recipient and the pickup point (the parent holds the state in useShippingForm).
 * `ChoiceCard` comes from the dialog (paymentParts.ts says why).
 */
export function ShippingFields({ form, ChoiceCard }: { form: ShippingForm; ChoiceCard: typeof ChoiceCardComponent }) {
  const id = useId();
  const { offers, offer, recipient, errors, fields } = form;
  const field = (name: ShippingField) => (element: HTMLElement | null) => {
    fields.current[name] = element;
  };
  const input = (name: RecipientField) => ({
    ref: field(name),
    value: recipient[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.type(name, e.target.value),
    error: errors[name],
  });
  return (
    <>
      <fieldset
        ref={field("offer")}
        tabIndex={-1}
        className="mt-5 space-y-2"
        aria-describedby={errors.offer ? `${id}-offer-error` : undefined}
      >
        <legend className="mb-2 text-base font-bold text-stone-900">Frakt</legend>
        {offers.map((o) => (
          <ChoiceCard
            key={offerKey(o)}
            name={`${id}-offer`}
            value={offerKey(o)}
            checked={o === offer}
            onChange={() => form.chooseOffer(o)}
            label={`${CARRIER_LABELS[o.carrier]} · ${DELIVERY_METHOD_LABELS[o.method]}`}
            detail={leadTimeText(o.leadDays)}
            aside={formatPrice(o.priceOre / 100, false)}
          />
        ))}
        <FieldError id={`${id}-offer-error`} message={errors.offer} />
      </fieldset>

      <fieldset className="mt-5 space-y-3">
        <legend className="mb-2 text-base font-bold text-stone-900">Hvor skal pakken?</legend>
        <TextField label="Navn" autoComplete="shipping name" {...input("name")} />
        <TextField label="Gateadresse" autoComplete="shipping address-line1" {...input("address_line")} />
        <div className="grid grid-cols-[7rem_1fr] gap-3">
          <TextField label="Postnummer" inputMode="numeric" autoComplete="shipping postal-code" maxLength={4} {...input("postal_code")} />
          <TextField label="Mobilnummer" type="tel" inputMode="tel" autoComplete="shipping tel" {...input("phone")} />
        </div>
        <p className="text-sm text-stone-700">Fraktselskapet sender deg SMS om pakken.</p>
      </fieldset>

      {needsPoint(offer) ? (
        <PickupPointList
          key={offerKey(offer)}
          carrier={offer.carrier}
          delivery={offer.method}
          postalCode={recipient.postal_code.trim()}
          selected={form.pickupPointId}
          onSelect={form.choosePoint}
          error={errors.pickup_point_id}
          fieldRef={field("pickup_point_id")}
          ChoiceCard={ChoiceCard}
        />
      ) : null}
    </>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}

interface PickupPointListProps {
  carrier: ShippingOffer["carrier"];
  delivery: PickupDelivery;
  postalCode: string;
  selected: string | null;
  onSelect: (id: string | null) => void;
  error?: string;
  fieldRef: (element: HTMLElement | null) => void;
  ChoiceCard: typeof ChoiceCardComponent;
}

/** The nearest points to the postal code, the first chosen; loading, failed and empty each said. */
function PickupPointList({ carrier, delivery, postalCode, selected, onSelect, error, fieldRef, ChoiceCard }: PickupPointListProps) {
  const id = useId();
  const words = POINT_WORDS[delivery];
  const known = POSTAL_CODE_RE.test(postalCode);
  const query = useQuery({ ...pickupPointsQuery({ carrier, delivery, postal_code: postalCode }), enabled: known });
  const points = known ? query.data?.pickup_points : undefined;

  useEffect(() => {
    if (points && !points.some((p) => p.id === selected) && (points.length > 0 || selected !== null)) onSelect(points[0]?.id ?? null);
  }, [points, selected, onSelect]);

  let body: ReactNode;
  if (!known) body = <p className="text-sm text-stone-700">Skriv inn postnummeret, så viser vi {words.many} i nærheten.</p>;
  else if (query.isError) {
    const reason = isApiError(query.error) && query.error.status !== 500 ? query.error.message : `Kunne ikke hente ${words.many}.`;
    body = (
      <div className="space-y-2">
        <p role="alert" className="text-sm text-stone-800">
          {reason}
        </p>
        <Button type="button" variant="secondary" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
          Prøv igjen
        </Button>
      </div>
    );
  } else if (!points) body = <Spinner label={`Henter ${words.many}...`} className="justify-start py-2" />;
  else if (points.length === 0)
    body = (
      <p className="text-sm text-stone-800">
        Fant ingen {words.many} i nærheten av {postalCode}. Sjekk postnummeret, eller velg en annen frakt.
      </p>
    );
  else
    body = points.map((p) => (
      <ChoiceCard
        key={p.id}
        name={`${id}-point`}
        value={p.id}
        checked={p.id === selected}
        onChange={() => onSelect(p.id)}
        label={p.name}
        detail={`${p.address}, ${p.postal_code} ${p.city}`}
        aside={<span className="text-sm font-normal text-stone-700">{`${formatNumber(p.distance_km, 1, 1)} km`}</span>}
      />
    ));

  return (
    <fieldset ref={fieldRef} tabIndex={-1} className="mt-5 space-y-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-base font-bold text-stone-900">{words.choose}</legend>
      {body}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
