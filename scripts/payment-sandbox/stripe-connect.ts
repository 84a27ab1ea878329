// Stripe Connect for the sellers: Express accounts, account links and the hosted onboarding page
// they lead to, login links and the Express dashboard, and the sandbox's switch that leaves an
// account unable to receive.
import { type FormObject, pick, pickMap, pickString } from "./form";
import { html, redirect, type Reply, type SandboxRequest } from "./http";
import { stripeId, token, unixNow } from "./ids";
import { dashboardPage, messagePage, onboardingPage } from "./pages";
import { StripeError, allowOnly, isUrl, missing, money } from "./stripe-errors";
import { accountObject } from "./stripe-objects";
import type { AccountLink, StripeAccount, StripeStore } from "./stripe-store";

const ACCOUNT_LINK_LIFETIME_S = 300;

export function createAccount(store: StripeStore, params: FormObject): object {
  allowOnly(params, [
    "type",
    "country",
    "email",
    "capabilities",
    "business_type",
    "metadata",
    "business_profile",
    "controller",
    "settings",
    "default_currency",
    "expand",
  ]);
  const type = pickString(params, "type") ?? "express";
  if (!["express", "standard", "custom"].includes(type)) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "Invalid type: must be one of custom, express, or standard",
      "parameter_invalid_empty",
      "type",
    );
  }
  const country = (pickString(params, "country") ?? "NO").toUpperCase();
  if (!/^[A-Z]{2}$/.test(country))
    throw new StripeError(
      400,
      "invalid_request_error",
      `Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'. A full list of country codes is available at https://stripe.com/global`,
      "country_unsupported",
      "country",
    );
  const email = pickString(params, "email") ?? null;
  if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw new StripeError(400, "invalid_request_error", `Invalid email address: ${email}`, "email_invalid", "email");
  const capabilities = pick(params, "capabilities");
  const requested =
    capabilities && typeof capabilities === "object" && !Array.isArray(capabilities)
      ? Object.entries(capabilities)
          .filter(([, v]) => pickString(v, "requested") === "true")
          .map(([k]) => k)
      : [];
  const account: StripeAccount = {
    id: stripeId("acct", 16),
    created: unixNow(),
    type: type as StripeAccount["type"],
    country,
    email,
    metadata: pickMap(params, "metadata"),
    businessType: pickString(params, "business_type") ?? null,
    requestedCapabilities: requested,
    detailsSubmitted: false,
    chargesEnabled: false,
    payoutsEnabled: false,
    individual: null,
    externalAccountLast4: null,
  };
  store.accounts.set(account.id, account);
  return accountObject(account);
}

export function createAccountLink(store: StripeStore, params: FormObject): object {
  allowOnly(params, ["account", "type", "refresh_url", "return_url", "collect", "collection_options", "expand"]);
  const accountId = pickString(params, "account");
  if (!accountId) throw missing("account");
  const type = pickString(params, "type");
  if (!type) throw missing("type");
  if (type !== "account_onboarding" && type !== "account_update") {
    throw new StripeError(
      400,
      "invalid_request_error",
      "Invalid type: must be one of account_onboarding or account_update",
      "parameter_invalid_empty",
      "type",
    );
  }
  const refreshUrl = pickString(params, "refresh_url");
  if (!refreshUrl) throw missing("refresh_url");
  const returnUrl = pickString(params, "return_url");
  if (!returnUrl) throw missing("return_url");
  for (const [param, url] of [
    ["refresh_url", refreshUrl],
    ["return_url", returnUrl],
  ] as const) {
    if (!isUrl(url)) throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", param);
  }
  store.account(accountId, "account");
  const link: AccountLink = {
    id: token(18),
    account: accountId,
    type,
    refreshUrl,
    returnUrl,
    created: unixNow(),
    expiresAt: unixNow() + ACCOUNT_LINK_LIFETIME_S,
    used: false,
  };
  store.links.set(link.id, link);
  return {
    object: "account_link",
    created: link.created,
    expires_at: link.expiresAt,
    url: `${store.options.publicUrl}/connect/onboarding/${link.id}`,
  };
}

export function createLoginLink(store: StripeStore, accountId: string, params: FormObject): object {
  allowOnly(params, ["expand", "redirect_url"]);
  const account = store.account(accountId, "account", 404);
  if (account.type !== "express") {
    throw new StripeError(400, "invalid_request_error", "Login links can only be created for Express accounts.", undefined, "account");
  }
  if (!account.detailsSubmitted) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "Cannot create a login link for an account that has not completed onboarding.",
      undefined,
      "account",
    );
  }
  const t = token(18);
  store.loginTokens.set(t, accountId);
  return { object: "login_link", created: unixNow(), url: `${store.options.publicUrl}/express/${accountId}/${t}` };
}

/** Sandbox-only: the account can no longer receive (Stripe disables transfers until requirements are met). */
export function restrictAccount(store: StripeStore, id: string): StripeAccount | null {
  const account = store.accounts.get(id);
  if (!account) return null;
  account.chargesEnabled = false;
  account.payoutsEnabled = false;
  store.emit("account.updated", accountObject(account), account.id, account.id);
  return account;
}

export function hostedOnboarding(store: StripeStore, req: SandboxRequest, linkId: string): Reply {
  const link = store.links.get(linkId);
  if (!link) return html(404, messagePage("Lenken finnes ikke", "Denne registreringslenken er ugyldig."));
  if (link.used || link.expiresAt < unixNow()) return redirect(link.refreshUrl);
  const account = store.accounts.get(link.account);
  if (!account) return html(404, messagePage("Kontoen finnes ikke", "Kontoen er slettet."));
  if (req.method === "GET")
    return html(200, onboardingPage(linkId, account.email ?? "", { firstName: "", lastName: "", accountNumber: "" }));
  if (req.method !== "POST") return html(405, messagePage("Ikke tillatt", "Metoden støttes ikke."));
  const form = Object.fromEntries(new URLSearchParams(req.body)) as Record<string, string>;
  const values = {
    firstName: (form.first_name ?? "").trim(),
    lastName: (form.last_name ?? "").trim(),
    accountNumber: (form.account_number ?? "").replace(/[\s.]/g, ""),
  };
  const errors: Record<string, string> = {};
  if (!values.firstName) errors.first_name = "Skriv inn fornavnet ditt.";
  if (!values.lastName) errors.last_name = "Skriv inn etternavnet ditt.";
  if (!/^\d{11}$/.test(values.accountNumber)) errors.account_number = "Kontonummeret må ha 11 siffer.";
  if (Object.keys(errors).length > 0) return html(400, onboardingPage(linkId, account.email ?? "", values, errors));
  link.used = true;
  account.individual = { first_name: values.firstName, last_name: values.lastName };
  account.externalAccountLast4 = values.accountNumber.slice(-4);
  account.detailsSubmitted = true;
  account.chargesEnabled = true;
  account.payoutsEnabled = true;
  store.emit("account.updated", accountObject(account), account.id, account.id);
  return redirect(link.returnUrl);
}

export function expressDashboard(store: StripeStore, accountId: string, loginToken: string): Reply {
  if (store.loginTokens.get(loginToken) !== accountId)
    return html(404, messagePage("Lenken finnes ikke", "Logg inn på nytt fra Lekebytte."));
  const account = store.accounts.get(accountId);
  if (!account) return html(404, messagePage("Kontoen finnes ikke", "Kontoen er slettet."));
  const destinationCharges = [...store.paymentIntents.values()]
    .filter((p) => p.destination === accountId)
    .map((p) => {
      const session = store.sessions.get(p.sessionId);
      return {
        title: session?.lineItems[0]?.name ?? p.id,
        amount: money(p.amount - p.applicationFeeAmount, p.currency),
        refunded: p.amountRefunded > 0,
        created: new Date(p.created * 1000),
      };
    });
  // Separate charges and transfers: what reached the account is the transfers to it.
  const transfers = [...store.transfers.values()]
    .filter((t) => t.destination === accountId)
    .map((t) => {
      const intent = [...store.paymentIntents.values()].find((p) => p.chargeId === t.sourceTransaction);
      const session = intent ? store.sessions.get(intent.sessionId) : undefined;
      return {
        title: `Overføring: ${session?.lineItems[0]?.name ?? t.description ?? t.id}`,
        amount: money(t.amount, t.currency),
        refunded: false,
        created: new Date(t.created * 1000),
      };
    });
  const payments = [...destinationCharges, ...transfers].sort((a, b) => a.created.getTime() - b.created.getTime());
  const name = account.individual ? `${account.individual.first_name} ${account.individual.last_name}` : (account.email ?? account.id);
  return html(200, dashboardPage(name, account.payoutsEnabled, payments));
}
