// Starting a purchase: the buying rules, the price from D1 (never from the client), a pending payment
// row, then the provider's hosted page (Stripe Checkout or a Vipps ePayment) for the browser.
import {
  MIN_ONLINE_PAYMENT_KR,
  onlineMethodsFor,
  PAYMENT_TEXTS,
  platformFee,
  toMinorUnits,
  type CheckoutResponse,
} from "../../../domain/payments";
import type { CheckoutInput, ShippingChoiceInput } from "../../../domain/schemas/payments";
import { CARRIER_LABELS, checkShippingChoice, DELIVERY_METHOD_LABELS, handoverModes, type ParcelSize } from "../../../domain/carriers";
import { isPurchasableListing } from "../../../domain/listing-lifecycle";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { ListingStatus, PricingMode } from "../../../domain/taxonomy";
import type { Actor, Bindings } from "../../env";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../lib/rate-limit";
import { assertNotSuspended } from "../moderation/suspension";
import { platformFeeBasisPoints } from "./config";
import { requireStripe, requireVipps } from "./providers";
import { transferGroup } from "./store";
import { LISTING_REFUSALS } from "../../../domain/listings";
import { chosenPickupPoint } from "../carriers/pickup-points";
import type { Db } from "../../db/client";

/** Stripe requires at least 30 minutes; a minute more keeps clear of the boundary. */
const CHECKOUT_LIFETIME_S = 31 * 60;

interface Purchasable {
  id: string;
  user_id: string;
  title: string;
  price: number | null;
  is_free: number;
  status: ListingStatus;
  is_hidden: number;
  payment_enabled: number;
  pricing_mode: PricingMode;
  seo_slug: string;
  stripe_account_id: string | null;
  stripe_charges_enabled: number | null;
  seller_deleted: string | null;
  paid: number;
  can_pick_up: number;
  can_ship: number;
  parcel_size: ParcelSize | null;
}

/** The priced "Sending" of a checkout, as written beside its payment (payment_shipping). */
interface PricedShipping {
  carrier: NonNullable<CheckoutInput["shipping"]>["carrier"];
  method: NonNullable<CheckoutInput["shipping"]>["delivery"];
  parcelSize: ParcelSize;
  priceOre: number;
  pickupPoint: { id: string; name: string; address: string } | null;
  recipient: { name: string; addressLine: string; postalCode: string; city: string; phone: string };
}

export const CHECKOUT_SHIPPING_TEXTS = {
  unknownPostalCode: "Vi finner ikke postnummeret. Sjekk at det stemmer.",
  choosePickupPoint: "Velg et hentested.",
  shippingOnly: "Selgeren kan bare sende denne leken. Velg «Sending».",
} as const;

/**
 * The buyer's "Sending" checked against the listing and priced from domain/carriers.ts (never from
 * the client); the pickup point must be one the carrier lists near the buyer's postal code. A
 * listing that is only sent cannot be bought for "Henting".
 */
async function priceShipping(env: Bindings, listing: Purchasable, choice: ShippingChoiceInput | null): Promise<PricedShipping | null> {
  if (!choice) {
    if (!listing.can_pick_up) throw new AppError("CONFLICT", CHECKOUT_SHIPPING_TEXTS.shippingOnly);
    return null;
  }
  const checked = checkShippingChoice(
    { handover: handoverModes(!!listing.can_pick_up, !!listing.can_ship), parcelSize: listing.parcel_size },
    { carrier: choice.carrier, method: choice.delivery },
  );
  if (!checked.ok)
    throw checked.status === 409
      ? new AppError("CONFLICT", checked.message)
      : new AppError("VALIDATION", checked.message, { delivery: checked.message });
  const { recipient } = choice;
  const city = await placeOf(env.DB, recipient.postal_code);
  if (!city)
    throw new AppError("VALIDATION", CHECKOUT_SHIPPING_TEXTS.unknownPostalCode, {
      "recipient.postal_code": CHECKOUT_SHIPPING_TEXTS.unknownPostalCode,
    });
  let pickupPoint: PricedShipping["pickupPoint"] = null;
  if (choice.delivery !== "mailbox") {
    if (!choice.pickup_point_id)
      throw new AppError("VALIDATION", CHECKOUT_SHIPPING_TEXTS.choosePickupPoint, {
        pickup_point_id: CHECKOUT_SHIPPING_TEXTS.choosePickupPoint,
      });
    const point = await chosenPickupPoint(env, choice.carrier, choice.delivery, recipient.postal_code, choice.pickup_point_id);
    pickupPoint = { id: point.id, name: point.name, address: `${point.address}, ${point.postal_code} ${point.city}` };
  }
  return {
    carrier: choice.carrier,
    method: choice.delivery,
    parcelSize: checked.offer.size,
    priceOre: checked.offer.priceOre,
    pickupPoint,
    recipient: {
      name: recipient.name,
      addressLine: recipient.address_line,
      postalCode: recipient.postal_code,
      city,
      phone: recipient.phone.replace(/^(?:\+47|0047)/, ""),
    },
  };
}

async function placeOf(db: Db, postalCode: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT place_name FROM postal_places WHERE postal_code = ?1")
    .bind(postalCode)
    .first<{ place_name: string }>();
  return row?.place_name ?? null;
}

/** Checks every buying rule; the error says which one failed (docs/security.md "Payments"). */
export function assertPurchasable(
  listing: Purchasable | null,
  buyerId: string,
  method: CheckoutInput["method"],
): asserts listing is Purchasable {
  if (!listing || listing.status === "deleted" || listing.is_hidden) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  if (listing.user_id === buyerId) throw new AppError("FORBIDDEN", PAYMENT_TEXTS.ownListing);
  if (listing.is_free || listing.price === null) throw new AppError("VALIDATION", PAYMENT_TEXTS.freeListing);
  if (listing.paid || listing.status === "sold") throw new AppError("CONFLICT", PAYMENT_TEXTS.sold);
  if (listing.status === "reserved") throw new AppError("CONFLICT", PAYMENT_TEXTS.reserved);
  if (!isPurchasableListing({ status: listing.status, is_hidden: !!listing.is_hidden }))
    throw new AppError("CONFLICT", PAYMENT_TEXTS.unavailable);
  if (listing.price < MIN_ONLINE_PAYMENT_KR) throw new AppError("VALIDATION", PAYMENT_TEXTS.tooCheap);
  const offered = onlineMethodsFor({
    payment_enabled: !!listing.payment_enabled,
    pricing_mode: listing.pricing_mode,
    is_free: !!listing.is_free,
    price: listing.price,
  });
  if (!offered.includes(method)) throw new AppError("VALIDATION", PAYMENT_TEXTS.methodNotOffered);
  if (!listing.stripe_account_id || !listing.stripe_charges_enabled || listing.seller_deleted) {
    throw new AppError("CONFLICT", PAYMENT_TEXTS.sellerCannotReceive);
  }
}

export async function startCheckout(env: Bindings, actor: Actor, input: CheckoutInput): Promise<CheckoutResponse> {
  const db = env.DB;
  await enforceRateLimit(db, RATE_RULES.paymentCheckout, actor.id);
  // A suspended user may not buy (docs/decisions/051-suspensions.md).
  await assertNotSuspended(db, actor.id);
  const listing = await db
    .prepare(
      `SELECT l.id, l.user_id, l.title, l.price, l.is_free, l.status, l.is_hidden, l.payment_enabled, l.pricing_mode, l.seo_slug,
              l.can_pick_up, l.can_ship, l.parcel_size,
              p.stripe_account_id, p.stripe_charges_enabled, u.deleted_at AS seller_deleted,
              EXISTS (SELECT 1 FROM payments x WHERE x.listing_id = l.id AND x.status = 'completed') AS paid
       FROM listings l JOIN users u ON u.id = l.user_id LEFT JOIN profiles p ON p.user_id = l.user_id
       WHERE l.id = ?1`,
    )
    .bind(input.listing_id)
    .first<Purchasable>();
  assertPurchasable(listing, actor.id, input.method);
  const shipping = await priceShipping(env, listing, input.shipping);

  // Provider configured? Checked before anything is written.
  const stripe = input.method === "card" ? requireStripe(env).stripe : null;
  const vipps = input.method === "vipps" ? requireVipps(env).vipps : null;

  const paymentId = crypto.randomUUID();
  const toyAmount = toMinorUnits(listing.price!);
  // One payment holds the toy and the shipping; the fee is taken on the toy only (decision 145).
  const amount = toyAmount + (shipping?.priceOre ?? 0);
  const fee = platformFee(toyAmount, platformFeeBasisPoints(env));
  const now = nowIso();
  const insertPayment = db
    .prepare(
      `INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, amount, currency, status, platform_fee, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'NOK', 'pending', ?7, ?8, ?8)`,
    )
    .bind(paymentId, listing.id, listing.user_id, actor.id, input.method === "card" ? "stripe" : "vipps", amount, fee, now);
  if (shipping) {
    const r = shipping.recipient;
    await db.batch([
      insertPayment,
      db
        .prepare(
          `INSERT INTO payment_shipping (payment_id, carrier, method, parcel_size, shipping_price, pickup_point_id, pickup_point_name,
             pickup_point_address, recipient_name, recipient_address_line, recipient_postal_code, recipient_city, recipient_phone, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)`,
        )
        .bind(
          paymentId,
          shipping.carrier,
          shipping.method,
          shipping.parcelSize,
          shipping.priceOre,
          shipping.pickupPoint?.id ?? null,
          shipping.pickupPoint?.name ?? null,
          shipping.pickupPoint?.address ?? null,
          r.name,
          r.addressLine,
          r.postalCode,
          r.city,
          r.phone,
          now,
        ),
    ]);
  } else {
    await insertPayment.run();
  }

  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const description = `${env.APP_NAME}: ${listing.title}`.slice(0, 100);
  let ref: string;
  let url: string;
  try {
    if (stripe) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            { quantity: 1, price_data: { currency: "nok", unit_amount: toyAmount, product_data: { name: listing.title } } },
            ...(shipping
              ? [
                  {
                    quantity: 1,
                    price_data: {
                      currency: "nok",
                      unit_amount: shipping.priceOre,
                      product_data: { name: `Frakt: ${CARRIER_LABELS[shipping.carrier]}, ${DELIVERY_METHOD_LABELS[shipping.method]}` },
                    },
                  },
                ]
              : []),
          ],
          // Separate charges and transfers (decision 105): the charge stays on Lekebytte's account,
          // held until the buyer has the toy; the release transfers the price less the fee to the
          // seller's account within this order's transfer group.
          payment_intent_data: {
            transfer_group: transferGroup(paymentId),
            description,
            metadata: { payment_id: paymentId, listing_id: listing.id },
          },
          metadata: { payment_id: paymentId, listing_id: listing.id, buyer_id: actor.id },
          client_reference_id: paymentId,
          customer_email: actor.email,
          locale: "nb",
          expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_S,
          success_url: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}&payment_id=${paymentId}`,
          // Stripe changes nothing on cancel (the session stays open until it expires); the page says
          // "Betalingen ble avbrutt" and leads back to the listing (decision 089).
          cancel_url: `${origin}/payment-success?cancelled=1&listing=${encodeURIComponent(listing.seo_slug)}`,
        },
        { idempotencyKey: `checkout-${paymentId}` },
      );
      if (!session.url) throw new Error("Stripe returned a Checkout Session without a url");
      ref = session.id;
      url = session.url;
    } else {
      const reference = `lb-${paymentId}`;
      const created = await vipps!.createPayment(
        {
          amount: { currency: "NOK", value: amount },
          paymentMethod: { type: "WALLET" },
          reference,
          userFlow: "WEB_REDIRECT",
          returnUrl: `${origin}/payment-success?session_id=${reference}&payment_id=${paymentId}`,
          paymentDescription: description,
          metadata: { payment_id: paymentId },
        },
        `create-${paymentId}`,
      );
      ref = reference;
      url = created.redirectUrl;
    }
  } catch (error) {
    console.error("Could not start checkout", paymentId, input.method, error instanceof Error ? error.message : error);
    await db
      .prepare("UPDATE payments SET status = 'failed', updated_at = ?2 WHERE id = ?1 AND status = 'pending'")
      .bind(paymentId, nowIso())
      .run();
    throw new AppError("PROVIDER_ERROR", PAYMENT_TEXTS.startFailed);
  }
  await db.prepare("UPDATE payments SET provider_ref = ?2, updated_at = ?3 WHERE id = ?1").bind(paymentId, ref, nowIso()).run();
  return { payment_id: paymentId, url };
}
