// A listing's payment settings (payment_enabled, pricing_mode) as the listing form may set them:
// only a seller whose Stripe account can take charges can enable payment; new listings of such a
// seller get payment in marketplace mode unless the form says otherwise.
import type { SellerPricingMode } from "../../../domain/payments";
import type { PricingMode } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";

export interface PaymentSettingsInput {
  is_free: boolean;
  payment_enabled?: boolean;
  pricing_mode?: SellerPricingMode;
}

export interface PaymentColumns {
  paymentEnabled: boolean;
  pricingMode: PricingMode;
}

export async function sellerCanTakePayments(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT stripe_charges_enabled FROM profiles WHERE user_id = ?1 AND stripe_account_id IS NOT NULL")
    .bind(userId)
    .first<{ stripe_charges_enabled: number }>();
  return !!row?.stripe_charges_enabled;
}

/** A free listing has nothing to pay: no payment setting, whatever the form says (decision 089). */
export function paymentColumnsForCreate(canTakePayments: boolean, form: PaymentSettingsInput): PaymentColumns {
  if (!canTakePayments || form.is_free) return { paymentEnabled: false, pricingMode: "standard" };
  return { paymentEnabled: form.payment_enabled ?? true, pricingMode: form.pricing_mode ?? "marketplace" };
}

/** Only what the form sent, and only for a seller who can take payments; otherwise nothing changes. */
export function paymentColumnsForUpdate(
  canTakePayments: boolean,
  form: PaymentSettingsInput,
  current: PaymentColumns,
): Partial<PaymentColumns> {
  if (!canTakePayments) return {};
  if (form.is_free) return { paymentEnabled: false, pricingMode: "standard" };
  const out: Partial<PaymentColumns> = {};
  if (form.pricing_mode !== undefined) out.pricingMode = form.pricing_mode;
  if (form.payment_enabled !== undefined) {
    out.paymentEnabled = form.payment_enabled;
    if (form.payment_enabled && current.pricingMode === "standard" && !out.pricingMode) out.pricingMode = "marketplace";
  }
  return out;
}
