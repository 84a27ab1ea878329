// Checkout Sessions: their creation (line items with price_data, a destination and a fee, or a
// transfer group for separate transfers), their expiry on request or when due, and the hosted card
// form that pays one (Stripe's test cards: Luhn-valid numbers pay, 4000 0000 0000 0002 is declined).
import { type FormObject, type FormValue, pick, pickMap, pickString } from "./form";
import { html, redirect, type Reply, type SandboxRequest } from "./http";
import { stripeId, unixNow } from "./ids";
import { checkoutPage, messagePage, type CheckoutForm } from "./pages";
import { StripeError, allowOnly, integer, isUrl, missing, money } from "./stripe-errors";
import { sessionObject } from "./stripe-objects";
import type { CheckoutSession, LineItem, PaymentIntent, StripeStore } from "./stripe-store";

/** Stripe's minimum charge in NOK is kr 3.00. */
const MIN_AMOUNT_NOK = 300;
const SESSION_MIN_LIFETIME_S = 30 * 60;
const SESSION_MAX_LIFETIME_S = 24 * 60 * 60;

export function createSession(store: StripeStore, params: FormObject): CheckoutSession {
  allowOnly(params, [
    "mode",
    "line_items",
    "success_url",
    "cancel_url",
    "client_reference_id",
    "customer_email",
    "metadata",
    "locale",
    "expires_at",
    "payment_intent_data",
    "payment_method_types",
    "submit_type",
    "currency",
    "expand",
  ]);
  const mode = pickString(params, "mode");
  if (!mode) throw missing("mode");
  if (mode !== "payment") {
    throw new StripeError(
      400,
      "invalid_request_error",
      `The sandbox supports mode=payment only (got '${mode}').`,
      "parameter_invalid_empty",
      "mode",
    );
  }
  const successUrl = pickString(params, "success_url");
  if (!successUrl) throw missing("success_url");
  if (!isUrl(successUrl.replace("{CHECKOUT_SESSION_ID}", "x")))
    throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", "success_url");
  const cancelUrl = pickString(params, "cancel_url") ?? null;
  if (cancelUrl !== null && !isUrl(cancelUrl))
    throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", "cancel_url");

  const rawItems = pick(params, "line_items");
  if (!Array.isArray(rawItems) || rawItems.length === 0) throw missing("line_items");
  const lineItems = rawItems.map((item, i) => lineItem(item, i));
  const currency = lineItems[0].currency;
  if (lineItems.some((li) => li.currency !== currency)) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "All line items must use the same currency.",
      "parameter_invalid_empty",
      "line_items",
    );
  }
  const amountTotal = lineItems.reduce((sum, li) => sum + li.unitAmount * li.quantity, 0);
  if (currency === "nok" && amountTotal < MIN_AMOUNT_NOK) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "The Checkout Session's total amount due must add up to at least kr 3.00",
      "amount_too_small",
      "line_items",
    );
  }

  const created = unixNow();
  const expiresRaw = pickString(params, "expires_at");
  let expiresAt = created + SESSION_MAX_LIFETIME_S;
  if (expiresRaw !== undefined) {
    expiresAt = integer(expiresRaw, "expires_at");
    if (expiresAt < created + SESSION_MIN_LIFETIME_S) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        "parameter_invalid_integer",
        "expires_at",
      );
    }
    if (expiresAt > created + SESSION_MAX_LIFETIME_S) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
        "parameter_invalid_integer",
        "expires_at",
      );
    }
  }

  const pid = pick(params, "payment_intent_data");
  const destination = pickString(pid, "transfer_data.destination") ?? null;
  if (destination) {
    const account = store.accounts.get(destination);
    if (!account) {
      throw new StripeError(
        400,
        "invalid_request_error",
        `No such destination: '${destination}'`,
        "resource_missing",
        "payment_intent_data[transfer_data][destination]",
      );
    }
    if (!account.chargesEnabled) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        "insufficient_capabilities_for_transfer",
        "payment_intent_data[transfer_data][destination]",
      );
    }
  }
  const feeRaw = pickString(pid, "application_fee_amount");
  const applicationFeeAmount = feeRaw === undefined ? null : integer(feeRaw, "payment_intent_data[application_fee_amount]");
  if (applicationFeeAmount !== null) {
    if (!destination) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
        undefined,
        "payment_intent_data[application_fee_amount]",
      );
    }
    if (applicationFeeAmount < 0 || applicationFeeAmount > amountTotal) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "The application fee amount must be between 0 and the total amount.",
        "parameter_invalid_integer",
        "payment_intent_data[application_fee_amount]",
      );
    }
  }

  const id = stripeId("cs_test", 58);
  const session: CheckoutSession = {
    id,
    created,
    expiresAt,
    status: "open",
    paymentStatus: "unpaid",
    currency,
    amountTotal,
    lineItems,
    successUrl,
    cancelUrl,
    clientReferenceId: pickString(params, "client_reference_id") ?? null,
    customerEmail: pickString(params, "customer_email") ?? null,
    customerDetails: null,
    metadata: pickMap(params, "metadata"),
    locale: pickString(params, "locale") ?? null,
    paymentIntent: null,
    destination,
    applicationFeeAmount,
    paymentIntentMetadata: pickMap(pid, "metadata"),
    paymentIntentDescription: pickString(pid, "description") ?? null,
    transferGroup: pickString(pid, "transfer_group") ?? null,
  };
  store.sessions.set(id, session);
  return session;
}

function lineItem(item: FormValue, i: number): LineItem {
  const param = `line_items[${i}]`;
  if (typeof item !== "object" || Array.isArray(item)) throw missing(`${param}[price_data]`);
  if (pickString(item, "price")) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "The sandbox supports line items with price_data only.",
      "parameter_invalid_empty",
      `${param}[price]`,
    );
  }
  const currency = pickString(item, "price_data.currency");
  if (!currency) throw missing(`${param}[price_data][currency]`);
  if (!/^[a-z]{3}$/.test(currency))
    throw new StripeError(
      400,
      "invalid_request_error",
      `Invalid currency: ${currency}.`,
      "parameter_invalid_empty",
      `${param}[price_data][currency]`,
    );
  const name = pickString(item, "price_data.product_data.name");
  if (!name) throw missing(`${param}[price_data][product_data][name]`);
  const unitRaw = pickString(item, "price_data.unit_amount");
  if (unitRaw === undefined) throw missing(`${param}[price_data][unit_amount]`);
  const unitAmount = integer(unitRaw, `${param}[price_data][unit_amount]`);
  if (unitAmount < 0)
    throw new StripeError(
      400,
      "invalid_request_error",
      "This value must be greater than or equal to 0.",
      "parameter_invalid_integer",
      `${param}[price_data][unit_amount]`,
    );
  const quantityRaw = pickString(item, "quantity");
  if (quantityRaw === undefined) throw missing(`${param}[quantity]`);
  const quantity = integer(quantityRaw, `${param}[quantity]`);
  if (quantity < 1)
    throw new StripeError(
      400,
      "invalid_request_error",
      "This value must be greater than or equal to 1.",
      "parameter_invalid_integer",
      `${param}[quantity]`,
    );
  return { name, unitAmount, quantity, currency };
}

export function expireSession(store: StripeStore, id: string): CheckoutSession {
  const session = store.session(id);
  if (session.status !== "open") {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      undefined,
      "session",
    );
  }
  markExpired(store, session);
  return session;
}

function markExpired(store: StripeStore, session: CheckoutSession): void {
  session.status = "expired";
  store.emit("checkout.session.expired", sessionObject(session, store.options.publicUrl), session.id);
}

export function expireDue(store: StripeStore): void {
  const now = unixNow();
  for (const session of store.sessions.values()) {
    if (session.status === "open" && session.expiresAt <= now) markExpired(store, session);
  }
}

export function hostedCheckout(store: StripeStore, req: SandboxRequest, id: string): Reply {
  const session = store.sessions.get(id);
  if (!session) return html(404, messagePage("Fant ikke betalingen", "Denne betalingslenken finnes ikke."));
  if (session.status !== "open") {
    const text =
      session.status === "complete"
        ? "Denne betalingen er allerede fullført."
        : "Betalingsøkten er utløpt. Gå tilbake og start betalingen på nytt.";
    return html(410, messagePage("Betalingen er ikke åpen", text, session.cancelUrl ?? undefined));
  }
  const view = {
    id,
    title: session.lineItems[0]?.name ?? "Betaling",
    amount: money(session.amountTotal, session.currency),
    cancelUrl: session.cancelUrl,
  };
  if (req.method === "GET")
    return html(200, checkoutPage(view, { email: session.customerEmail ?? "", card: "", expiry: "", cvc: "", name: "" }));
  if (req.method !== "POST") return html(405, messagePage("Ikke tillatt", "Metoden støttes ikke."));

  const form = Object.fromEntries(new URLSearchParams(req.body)) as Record<string, string>;
  const values: CheckoutForm = {
    email: form.email ?? "",
    card: form.card ?? "",
    expiry: form.expiry ?? "",
    cvc: form.cvc ?? "",
    name: form.name ?? "",
  };
  const errors = validateCard(values);
  if (Object.keys(errors).length > 0) return html(400, checkoutPage(view, values, errors));
  if (DECLINED_CARDS.has(values.card.replace(/\s+/g, ""))) {
    return html(402, checkoutPage(view, values, { card: "Kortet ble avvist. Prøv et annet kort." }));
  }
  pay(store, session, values);
  return redirect(session.successUrl.replace("{CHECKOUT_SESSION_ID}", session.id));
}

/** The card was accepted: the PaymentIntent succeeds, the session completes, the event goes out. */
function pay(store: StripeStore, session: CheckoutSession, values: { email: string; name: string }): void {
  const intent: PaymentIntent = {
    id: stripeId("pi", 24),
    chargeId: stripeId("ch", 24),
    sessionId: session.id,
    amount: session.amountTotal,
    currency: session.currency,
    created: unixNow(),
    destination: session.destination,
    applicationFeeAmount: session.applicationFeeAmount ?? 0,
    amountRefunded: 0,
    transferGroup: session.transferGroup ?? null,
  };
  store.paymentIntents.set(intent.id, intent);
  session.status = "complete";
  session.paymentStatus = "paid";
  session.paymentIntent = intent.id;
  session.customerDetails = { email: values.email, name: values.name || null };
  store.emit("checkout.session.completed", sessionObject(session, store.options.publicUrl), session.id);
}

/** Stripe's documented test card that is always declined. */
const DECLINED_CARDS = new Set(["4000000000000002"]);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function validateCard(values: CheckoutForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email.trim())) errors.email = "Skriv inn en gyldig e-postadresse.";
  const card = values.card.replace(/\s+/g, "");
  if (!/^\d{13,19}$/.test(card) || !luhn(card)) errors.card = "Kortnummeret er ugyldig.";
  const exp = /^(\d{2})\s*\/\s*(\d{2})$/.exec(values.expiry.trim());
  if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) {
    errors.expiry = "Utløpsdatoen må skrives MM / ÅÅ.";
  } else {
    const now = new Date();
    const year = 2000 + Number(exp[2]);
    const month = Number(exp[1]);
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) errors.expiry = "Kortet er utløpt.";
  }
  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = "CVC må være 3 siffer.";
  return errors;
}
