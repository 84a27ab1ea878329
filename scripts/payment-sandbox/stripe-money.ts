// What moves money after a payment: refunds of a PaymentIntent (with the transfer reversal and the
// fee refund Stripe offers), and transfers to connected accounts from a charge (separate charges
// and transfers: a `transfer_group` per order, `source_transaction` tying a transfer to its charge).
import { type FormObject, pickMap, pickString } from "./form";
import { stripeId, unixNow } from "./ids";
import { StripeError, allowOnly, integer, missing, money } from "./stripe-errors";
import { chargeObject, refundObject, transferObject } from "./stripe-objects";
import type { PaymentIntent, StripeRefund, StripeStore, StripeTransfer } from "./stripe-store";

export function createRefund(store: StripeStore, params: FormObject): StripeRefund {
  allowOnly(params, ["payment_intent", "charge", "amount", "reason", "metadata", "reverse_transfer", "refund_application_fee", "expand"]);
  const piId = pickString(params, "payment_intent");
  const chargeId = pickString(params, "charge");
  if (!piId && !chargeId) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "One of the following params should be provided for this request: payment_intent or charge.",
      "parameter_missing",
    );
  }
  const intent = piId ? store.paymentIntents.get(piId) : [...store.paymentIntents.values()].find((p) => p.chargeId === chargeId);
  if (!intent) {
    const param = piId ? "payment_intent" : "charge";
    throw new StripeError(400, "invalid_request_error", `No such ${param}: '${piId ?? chargeId}'`, "resource_missing", param);
  }
  const remaining = intent.amount - intent.amountRefunded;
  if (remaining <= 0) {
    throw new StripeError(400, "invalid_request_error", `Charge ${intent.chargeId} has already been refunded.`, "charge_already_refunded");
  }
  const amountRaw = pickString(params, "amount");
  const amount = amountRaw === undefined ? remaining : integer(amountRaw, "amount");
  if (amount <= 0) throw new StripeError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
  if (amount > remaining) {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Refund amount (${money(amount, intent.currency)}) is greater than unrefunded amount on charge (${money(remaining, intent.currency)})`,
      "amount_too_large",
      "amount",
    );
  }
  const reason = pickString(params, "reason") ?? null;
  if (reason !== null && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer",
      "parameter_invalid_empty",
      "reason",
    );
  }
  const reverse = pickString(params, "reverse_transfer") === "true";
  if (reverse && !intent.destination) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "You can only reverse transfers for charges that were created with a destination.",
      undefined,
      "reverse_transfer",
    );
  }
  intent.amountRefunded += amount;
  const refund: StripeRefund = {
    id: stripeId("re", 24),
    amount,
    currency: intent.currency,
    created: unixNow(),
    paymentIntent: intent.id,
    chargeId: intent.chargeId,
    reason,
    metadata: pickMap(params, "metadata"),
    transferReversal: reverse ? stripeId("trr", 24) : null,
    refundedApplicationFee: pickString(params, "refund_application_fee") === "true",
  };
  store.refunds.set(refund.id, refund);
  store.emit("refund.created", refundObject(refund), intent.sessionId);
  store.emit("charge.refunded", chargeObject(intent), intent.sessionId);
  return refund;
}

/** What a charge still holds for transfers: its amount less refunds and earlier transfers from it. */
function transferable(store: StripeStore, intent: PaymentIntent): number {
  const transferred = [...store.transfers.values()]
    .filter((t) => t.sourceTransaction === intent.chargeId)
    .reduce((sum, t) => sum + t.amount, 0);
  return intent.amount - intent.amountRefunded - transferred;
}

/**
 * A Transfer from the platform's balance to a connected account (separate charges and transfers).
 * With `source_transaction` it is funded by that charge, and only up to what the charge still
 * holds. The account must have the transfers capability active, as Stripe requires.
 */
export function createTransfer(store: StripeStore, params: FormObject): StripeTransfer {
  allowOnly(params, ["amount", "currency", "destination", "transfer_group", "source_transaction", "metadata", "description", "expand"]);
  const amountRaw = pickString(params, "amount");
  if (amountRaw === undefined) throw missing("amount");
  const amount = integer(amountRaw, "amount");
  if (amount <= 0) throw new StripeError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
  const currency = pickString(params, "currency");
  if (!currency) throw missing("currency");
  const destination = pickString(params, "destination");
  if (!destination) throw missing("destination");
  const account = store.account(destination, "destination");
  if (!account.chargesEnabled || !account.payoutsEnabled) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
      "insufficient_capabilities_for_transfer",
      "destination",
    );
  }
  const source = pickString(params, "source_transaction") ?? null;
  if (source) {
    const intent = [...store.paymentIntents.values()].find((p) => p.chargeId === source);
    if (!intent)
      throw new StripeError(400, "invalid_request_error", `No such charge: '${source}'`, "resource_missing", "source_transaction");
    if (intent.currency !== currency.toLowerCase()) {
      throw new StripeError(
        400,
        "invalid_request_error",
        `The currency of source_transaction's balance transaction (${intent.currency}) must be the same as the transfer currency (${currency.toLowerCase()})`,
        undefined,
        "currency",
      );
    }
    const left = transferable(store, intent);
    if (amount > left) {
      throw new StripeError(
        400,
        "invalid_request_error",
        `Insufficient funds in Stripe account. The transfer amount (${money(amount, intent.currency)}) is greater than what the source transaction has left (${money(left, intent.currency)}).`,
        "balance_insufficient",
        "amount",
      );
    }
  }
  const transfer: StripeTransfer = {
    id: stripeId("tr", 24),
    amount,
    currency: currency.toLowerCase(),
    created: unixNow(),
    destination,
    transferGroup: pickString(params, "transfer_group") ?? null,
    sourceTransaction: source,
    metadata: pickMap(params, "metadata"),
    description: pickString(params, "description") ?? null,
  };
  store.transfers.set(transfer.id, transfer);
  store.emit("transfer.created", transferObject(transfer), transfer.transferGroup ?? transfer.id);
  return transfer;
}
