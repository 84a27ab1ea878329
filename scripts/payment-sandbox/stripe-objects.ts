// Stripe's JSON objects (account, Checkout Session, PaymentIntent, charge, transfer, refund) as its
// API returns them and its events carry them, built from the sandbox's records.
import type { CheckoutSession, PaymentIntent, StripeAccount, StripeRefund, StripeTransfer } from "./stripe-store";

export function accountObject(a: StripeAccount): object {
  const due = a.detailsSubmitted
    ? []
    : [
        "business_profile.url",
        "external_account",
        "individual.first_name",
        "individual.last_name",
        "tos_acceptance.date",
        "tos_acceptance.ip",
      ];
  const capabilityState = a.chargesEnabled ? "active" : "inactive";
  return {
    id: a.id,
    object: "account",
    business_profile: {
      mcc: null,
      name: null,
      product_description: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: a.businessType,
    capabilities: Object.fromEntries(a.requestedCapabilities.map((c) => [c, capabilityState])),
    charges_enabled: a.chargesEnabled,
    controller: {
      fees: { payer: "application" },
      is_controller: true,
      losses: { payments: "application" },
      requirement_collection: "stripe",
      stripe_dashboard: { type: a.type === "express" ? "express" : "full" },
      type: "application",
    },
    country: a.country,
    created: a.created,
    default_currency: "nok",
    details_submitted: a.detailsSubmitted,
    email: a.email,
    external_accounts: {
      object: "list",
      data: a.externalAccountLast4
        ? [
            {
              id: `ba_${a.id.slice(5)}`,
              object: "bank_account",
              account: a.id,
              country: a.country,
              currency: "nok",
              last4: a.externalAccountLast4,
              status: "new",
            },
          ]
        : [],
      has_more: false,
      total_count: a.externalAccountLast4 ? 1 : 0,
      url: `/v1/accounts/${a.id}/external_accounts`,
    },
    future_requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    },
    metadata: a.metadata,
    payouts_enabled: a.payoutsEnabled,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: due,
      disabled_reason: a.detailsSubmitted ? null : "requirements.past_due",
      errors: [],
      eventually_due: due,
      past_due: due,
      pending_verification: [],
    },
    settings: {
      dashboard: { display_name: null, timezone: "Europe/Oslo" },
      payouts: { debit_negative_balances: true, schedule: { delay_days: 7, interval: "daily" }, statement_descriptor: null },
    },
    tos_acceptance: { date: a.detailsSubmitted ? a.created : null, ip: null, user_agent: null },
    type: a.type,
  };
}

/** `publicUrl`: where the browser reaches the hosted pages (an open session's `url`). */
export function sessionObject(s: CheckoutSession, publicUrl: string): object {
  return {
    id: s.id,
    object: "checkout.session",
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: s.amountTotal,
    amount_total: s.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: s.cancelUrl,
    client_reference_id: s.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: s.created,
    currency: s.currency,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_creation: "if_required",
    customer_details: s.customerDetails
      ? {
          address: { city: null, country: "NO", line1: null, line2: null, postal_code: null, state: null },
          email: s.customerDetails.email,
          name: s.customerDetails.name,
          phone: null,
          tax_exempt: "none",
          tax_ids: [],
        }
      : null,
    customer_email: s.customerEmail,
    discounts: [],
    expires_at: s.expiresAt,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: s.locale,
    metadata: s.metadata,
    mode: "payment",
    payment_intent: s.paymentIntent,
    payment_link: null,
    payment_method_collection: "if_required",
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_status: s.paymentStatus,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: s.status,
    submit_type: null,
    subscription: null,
    success_url: s.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: s.status === "open" ? `${publicUrl}/c/pay/${s.id}` : null,
  };
}

export function intentObject(p: PaymentIntent): object {
  return {
    id: p.id,
    object: "payment_intent",
    amount: p.amount,
    amount_received: p.amount,
    application_fee_amount: p.applicationFeeAmount || null,
    created: p.created,
    currency: p.currency,
    latest_charge: p.chargeId,
    livemode: false,
    status: "succeeded",
    transfer_data: p.destination ? { destination: p.destination } : null,
    transfer_group: p.transferGroup,
  };
}

export function chargeObject(p: PaymentIntent): object {
  return {
    id: p.chargeId,
    object: "charge",
    amount: p.amount,
    amount_captured: p.amount,
    amount_refunded: p.amountRefunded,
    captured: true,
    created: p.created,
    currency: p.currency,
    livemode: false,
    paid: true,
    payment_intent: p.id,
    refunded: p.amountRefunded >= p.amount,
    status: "succeeded",
    transfer_group: p.transferGroup,
  };
}

export function transferObject(t: StripeTransfer): object {
  return {
    id: t.id,
    object: "transfer",
    amount: t.amount,
    amount_reversed: 0,
    balance_transaction: `txn_${t.id.slice(3)}`,
    created: t.created,
    currency: t.currency,
    description: t.description,
    destination: t.destination,
    destination_payment: `py_${t.id.slice(3)}`,
    livemode: false,
    metadata: t.metadata,
    reversals: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/transfers/${t.id}/reversals` },
    reversed: false,
    source_transaction: t.sourceTransaction,
    source_type: "card",
    transfer_group: t.transferGroup,
  };
}

export function refundObject(r: StripeRefund): object {
  return {
    id: r.id,
    object: "refund",
    amount: r.amount,
    balance_transaction: `txn_${r.id.slice(3)}`,
    charge: r.chargeId,
    created: r.created,
    currency: r.currency,
    destination_details: {
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    metadata: r.metadata,
    payment_intent: r.paymentIntent,
    reason: r.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: r.transferReversal,
  };
}
