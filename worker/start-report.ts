// The settings a deployment lacks, reported when an isolate starts (its first request, cron run or
// queue batch), not when the first person trips over them: a deploy without the mail binding looks
// healthy until someone signs up and never gets the confirmation mail (docs/decisions/135).
import { isLocal, type Bindings } from "./env";
import { vippsLoginConfig } from "./features/auth/vipps-oidc";
import { stripeConfig, vippsConfig } from "./features/payments/config";
import { bringConfig, helthjemConfig } from "./features/carriers/carrier-config";

export interface SettingProblem {
  /** The binding, secret or variable, as docs/deploy.md names it. */
  name: string;
  problem: "missing" | "invalid";
  /** What stops working without it. */
  effect: string;
}

const VIPPS_KEYS = ["VIPPS_CLIENT_ID", "VIPPS_CLIENT_SECRET", "VIPPS_SUBSCRIPTION_KEY", "VIPPS_MERCHANT_SERIAL_NUMBER"] as const;

/** A provider's configuration, or the reason it cannot be read (a base URL that is not https, …). */
function attempt<T>(read: () => T): { value: T } | { error: string } {
  try {
    return { value: read() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What is missing or unusable, one entry per setting. Local mode needs no mail binding (the dev
 * outbox) and no purge token (one data centre); the payment keys it needs like any other, though
 * `npm start` gives it the sandbox's.
 */
export function settingProblems(env: Bindings): SettingProblem[] {
  const problems: SettingProblem[] = [];
  const local = isLocal(env);
  if (!local && !env.EMAIL)
    problems.push({
      name: "EMAIL",
      problem: "missing",
      effect:
        "no e-mail is sent (send_email binding of Cloudflare Email Service): sign-up confirmations, password resets, e-mail changes, notices of chats, trades, orders and moderation, saved-search alerts and the admins' alerts each fail and log an error",
    });

  const stripe = attempt(() => stripeConfig(env));
  if ("error" in stripe)
    problems.push({ name: "STRIPE_API_BASE", problem: "invalid", effect: `${stripe.error}: card payments and Stripe onboarding fail` });
  else if (!stripe.value)
    problems.push({
      name: "STRIPE_SECRET_KEY",
      problem: "missing",
      effect: 'card payments (Stripe Checkout) and "Koble til Stripe" answer 503',
    });
  else if (stripe.value.webhookSecrets.length === 0)
    problems.push({
      name: "STRIPE_WEBHOOK_SECRET",
      problem: "missing",
      effect: "Stripe's webhooks are refused (503): card payments settle only when the buyer comes back or at the hourly cron",
    });

  for (const key of VIPPS_KEYS) {
    if (env[key]) continue;
    const login = key === "VIPPS_CLIENT_ID" || key === "VIPPS_CLIENT_SECRET" ? ' and "Logg inn med Vipps"' : "";
    problems.push({ name: key, problem: "missing", effect: `Vipps payments${login} answer 503` });
  }
  // Both read VIPPS_API_BASE the same way: one of them is enough to find it unusable.
  const vipps = attempt(() => vippsConfig(env));
  const login = attempt(() => vippsLoginConfig(env));
  const baseError = "error" in vipps ? vipps.error : "error" in login ? login.error : null;
  if (baseError)
    problems.push({ name: "VIPPS_API_BASE", problem: "invalid", effect: `${baseError}: Vipps payments and "Logg inn med Vipps" fail` });
  else if ("value" in vipps && vipps.value && !vipps.value.webhookSecret)
    problems.push({
      name: "VIPPS_WEBHOOK_SECRET",
      problem: "missing",
      effect: "Vipps' webhooks are refused (503): Vipps payments settle only when the buyer comes back or at the hourly cron",
    });

  // The carriers' keys are not asked for yet (no checkout sends a parcel); a setting set but unusable is.
  const bring = attempt(() => bringConfig(env));
  if ("error" in bring)
    problems.push({
      name: "BRING_API_BASE",
      problem: "invalid",
      effect: `${bring.error}: parcels are neither booked nor cancelled with Bring (the cron's other parcel moves still run)`,
    });
  // Helthjem's likewise (decision 154): its base URL, or a shop id that is not a number.
  const helthjem = attempt(() => helthjemConfig(env));
  if ("error" in helthjem)
    problems.push({
      name: helthjem.error.startsWith("HELTHJEM_SHOP_ID") ? "HELTHJEM_SHOP_ID" : "HELTHJEM_API_BASE",
      problem: "invalid",
      effect: `${helthjem.error}: Helthjem's parcels are neither booked nor cancelled, and its service points are not shown (Bring's parcels and the cron's other parcel moves still run)`,
    });

  if (!local)
    for (const name of ["CACHE_PURGE_ZONE_ID", "CACHE_PURGE_TOKEN"] as const)
      if (!env[name])
        problems.push({
          name,
          problem: "missing",
          effect:
            "a change visitors must see at once (a sale, a hidden listing) is purged from the edge cache only in the data centre that made it; elsewhere the old page lives until it expires",
        });
  return problems;
}

const reported = new WeakSet<object>();

/**
 * Logs one JSON line per problem, once per isolate: the runtime hands an isolate the same `env` for
 * every request, so the first caller with a given `env` reports and the rest return at once.
 * Deployed the lines are errors; in local mode, where `npm run dev` runs without payment keys, warnings.
 */
export function reportSettingsAtStart(env: Bindings): void {
  if (reported.has(env)) return;
  reported.add(env);
  const log = isLocal(env) ? console.warn : console.error;
  for (const problem of settingProblems(env))
    log(JSON.stringify({ setting: problem.name, problem: problem.problem, effect: problem.effect }));
}
