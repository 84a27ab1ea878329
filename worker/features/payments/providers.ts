// The configured provider clients, or a clear 503 when a provider is not configured.
import { PAYMENT_TEXTS } from "../../../domain/payments";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { stripeConfig, vippsConfig, type StripeConfig, type VippsConfig } from "./config";
import { stripeClient, type Stripe } from "./stripe-client";
import { VippsClient } from "./vipps-client";

export function requireStripe(env: Bindings): { stripe: Stripe; config: StripeConfig } {
  const config = stripeConfig(env);
  if (!config) throw new AppError("SERVICE_UNAVAILABLE", PAYMENT_TEXTS.providerUnavailable);
  return { stripe: stripeClient(config), config };
}

export function requireVipps(env: Bindings): { vipps: VippsClient; config: VippsConfig } {
  const config = vippsConfig(env);
  if (!config) throw new AppError("SERVICE_UNAVAILABLE", PAYMENT_TEXTS.providerUnavailable);
  return { vipps: new VippsClient(config), config };
}
