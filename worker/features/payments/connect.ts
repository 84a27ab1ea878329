// Seller onboarding with Stripe Connect Express: the account, the onboarding link, the Express
// dashboard link, and the account's state cached on the profile. When an account can take charges,
// the seller's listings that never had a payment setting get payment enabled in marketplace mode.
import { PAYMENT_REFUSALS, PAYMENT_TEXTS, type SellerPaymentStatus } from "../../../domain/payments";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Db } from "../../db/client";
import type { Actor, Bindings } from "../../env";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../lib/rate-limit";
import { sellerListingsChanged } from "../../lib/listing-changes";
import { stripeConfig } from "./config";
import { requireStripe } from "./providers";
import { stripeClient, type Stripe } from "./stripe-client";

interface ProfilePayments {
  stripe_account_id: string | null;
  stripe_charges_enabled: number;
  stripe_payouts_enabled: number;
  stripe_details_submitted: number;
}

async function profilePayments(db: Db, userId: string): Promise<ProfilePayments> {
  const row = await db
    .prepare(
      "SELECT stripe_account_id, stripe_charges_enabled, stripe_payouts_enabled, stripe_details_submitted FROM profiles WHERE user_id = ?1",
    )
    .bind(userId)
    .first<ProfilePayments>();
  return row ?? { stripe_account_id: null, stripe_charges_enabled: 0, stripe_payouts_enabled: 0, stripe_details_submitted: 0 };
}

function statusOf(p: ProfilePayments): SellerPaymentStatus {
  return {
    connected: !!p.stripe_account_id,
    details_submitted: !!p.stripe_details_submitted,
    charges_enabled: !!p.stripe_charges_enabled,
    payouts_enabled: !!p.stripe_payouts_enabled,
  };
}

/**
 * Store what Stripe says about the account on the seller's profile; the first time it can take
 * charges, enable payment (marketplace mode) on the seller's listings that never had a setting;
 * free listings have nothing to pay and stay without (decision 089). Whether the seller can take
 * charges decides every one of their listing pages' buy bar: a change purges them (decision 116).
 */
export async function applyAccountState(
  env: Bindings,
  account: Pick<Stripe.Account, "id" | "charges_enabled" | "payouts_enabled" | "details_submitted">,
): Promise<void> {
  const d1 = env.DB;
  const now = nowIso();
  const [before, listings] = await d1.batch<{ user_id: string; stripe_charges_enabled: number }>([
    d1.prepare("SELECT user_id, stripe_charges_enabled FROM profiles WHERE stripe_account_id = ?1").bind(account.id),
    d1
      .prepare(
        `UPDATE listings SET payment_enabled = 1, pricing_mode = 'marketplace', updated_at = ?3
         WHERE ?2 = 1 AND pricing_mode = 'standard' AND status <> 'deleted' AND is_free = 0
           AND user_id = (SELECT user_id FROM profiles WHERE stripe_account_id = ?1)`,
      )
      .bind(account.id, account.charges_enabled ? 1 : 0, now),
    d1
      .prepare(
        `UPDATE profiles SET stripe_charges_enabled = ?2, stripe_payouts_enabled = ?3, stripe_details_submitted = ?4, updated_at = ?5
         WHERE stripe_account_id = ?1`,
      )
      .bind(account.id, account.charges_enabled ? 1 : 0, account.payouts_enabled ? 1 : 0, account.details_submitted ? 1 : 0, now),
  ]);
  const seller = before.results[0];
  if (seller && (listings.meta.changes > 0 || !!seller.stripe_charges_enabled !== account.charges_enabled))
    await sellerListingsChanged(env, seller.user_id);
}

/** The seller's state, refreshed from Stripe when an account exists (the cached state if Stripe cannot be reached). */
export async function sellerStatus(env: Bindings, actor: Actor): Promise<SellerPaymentStatus> {
  const db = env.DB;
  const profile = await profilePayments(db, actor.id);
  const config = stripeConfig(env);
  if (profile.stripe_account_id && config) {
    try {
      const account = await stripeClient(config).accounts.retrieve(profile.stripe_account_id);
      await applyAccountState(env, account);
      return statusOf(await profilePayments(db, actor.id));
    } catch (error) {
      console.warn("Could not refresh the Stripe account", profile.stripe_account_id, error instanceof Error ? error.message : error);
    }
  }
  return statusOf(profile);
}

/** "Koble til Stripe": the seller's Express account (created once) and a fresh onboarding link. */
export async function connectStripe(env: Bindings, actor: Actor): Promise<{ url: string }> {
  const db = env.DB;
  await enforceRateLimit(db, RATE_RULES.paymentConnect, actor.id);
  const { stripe } = requireStripe(env);
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  try {
    let accountId = (await profilePayments(db, actor.id)).stripe_account_id;
    if (!accountId) {
      const account = await stripe.accounts.create(
        {
          type: "express",
          country: "NO",
          email: actor.email,
          business_type: "individual",
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          metadata: { user_id: actor.id },
        },
        // Two clicks at once create one account.
        { idempotencyKey: `connect-account-${actor.id}` },
      );
      // Only the first stored account counts; a concurrent request that lost uses the stored one.
      await db
        .prepare("UPDATE profiles SET stripe_account_id = ?2, updated_at = ?3 WHERE user_id = ?1 AND stripe_account_id IS NULL")
        .bind(actor.id, account.id, nowIso())
        .run();
      accountId = (await profilePayments(db, actor.id)).stripe_account_id;
      if (!accountId) throw new Error("the profile has no stripe_account_id after connecting");
    }
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: "account_onboarding",
      refresh_url: `${origin}/profile?stripe=refresh`,
      return_url: `${origin}/profile?stripe=return`,
    });
    return { url: link.url };
  } catch (error) {
    if (error instanceof AppError) throw error;
    console.error("Stripe connect failed", actor.id, error instanceof Error ? error.message : error);
    throw new AppError("PROVIDER_ERROR", PAYMENT_TEXTS.stripeConnectFailed);
  }
}

/** "Åpne Stripe-dashbord": a single-use Express dashboard login link. */
export async function stripeDashboardLink(env: Bindings, actor: Actor): Promise<{ url: string }> {
  const db = env.DB;
  await enforceRateLimit(db, RATE_RULES.paymentConnect, actor.id);
  const { stripe } = requireStripe(env);
  const status = await sellerStatus(env, actor);
  if (!status.connected) throw new AppError("CONFLICT", PAYMENT_REFUSALS.notConnected);
  // Express dashboards exist once onboarding is done.
  if (!status.details_submitted) throw new AppError("CONFLICT", PAYMENT_REFUSALS.onboardingIncomplete);
  const profile = await profilePayments(db, actor.id);
  try {
    const link = await stripe.accounts.createLoginLink(profile.stripe_account_id!);
    return { url: link.url };
  } catch (error) {
    console.error("Stripe login link failed", actor.id, error instanceof Error ? error.message : error);
    throw new AppError("PROVIDER_ERROR", PAYMENT_TEXTS.stripeConnectFailed);
  }
}

/** account.updated: re-read the account (events may arrive out of order) and store its state. */
export async function refreshAccount(env: Bindings, accountId: string): Promise<void> {
  const db = env.DB;
  const known = await db.prepare("SELECT 1 AS ok FROM profiles WHERE stripe_account_id = ?1").bind(accountId).first();
  if (!known) return;
  const { stripe } = requireStripe(env);
  await applyAccountState(env, await stripe.accounts.retrieve(accountId));
}
