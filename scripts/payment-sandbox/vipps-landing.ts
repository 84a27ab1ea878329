// The page a Vipps payment's redirectUrl opens, where a person enters a phone number, and "the app"
// where they approve or cancel it; the payment is then authorized or aborted, with its webhook.
import { html, redirect, type Reply, type SandboxRequest } from "./http";
import { messagePage, vippsAppPage, vippsLandingPage } from "./pages";
import { money } from "./stripe-api";
import type { VippsPayment, VippsPayments } from "./vipps-payments";

function byToken(vipps: VippsPayments, value: string | null): VippsPayment | undefined {
  if (!value) return undefined;
  return [...vipps.payments.values()].find((p) => p.landingToken === value);
}

/** The payment a landing-page request is about, or the page to show instead (unknown or no longer open). */
function openPayment(vipps: VippsPayments, req: SandboxRequest): { form: URLSearchParams; payment: VippsPayment } | Reply {
  const form = req.method === "POST" ? new URLSearchParams(req.body) : req.url.searchParams;
  const payment = byToken(vipps, form.get("token"));
  if (!payment) return html(404, messagePage("Fant ikke betalingen", "Lenken er ugyldig eller utløpt."));
  if (payment.state !== "CREATED") {
    const text = payment.state === "AUTHORIZED" ? "Betalingen er allerede godkjent." : "Betalingen er avbrutt eller utløpt.";
    return html(410, messagePage("Betalingen er ikke lenger aktiv", text, payment.returnUrl ?? undefined));
  }
  return { form, payment };
}

export function landing(vipps: VippsPayments, req: SandboxRequest): Reply {
  const open = openPayment(vipps, req);
  if ("status" in open) return open;
  const { form, payment } = open;
  const view = pageView(payment);
  if (req.method === "GET") return html(200, vippsLandingPage(view, ""));
  if (form.get("action") === "cancel") return cancelByUser(vipps, payment);
  const phone = (form.get("phone") ?? "").replace(/[\s-]/g, "").replace(/^(\+47|0047)/, "");
  if (!/^[49]\d{7}$/.test(phone))
    return html(400, vippsLandingPage(view, form.get("phone") ?? "", "Skriv inn et norsk mobilnummer med 8 siffer."));
  payment.phoneNumber = `47${phone}`;
  return redirect(`/vipps/app?token=${payment.landingToken}`);
}

export function app(vipps: VippsPayments, req: SandboxRequest): Reply {
  const open = openPayment(vipps, req);
  if ("status" in open) return open;
  const { form, payment } = open;
  if (!payment.phoneNumber) return redirect(`/vipps/landing?token=${payment.landingToken}`);
  if (req.method === "GET") return html(200, vippsAppPage(pageView(payment), payment.phoneNumber));
  if (form.get("action") === "approve") {
    vipps.authorize(payment, payment.phoneNumber);
    return redirect(payment.returnUrl ?? "/");
  }
  return cancelByUser(vipps, payment);
}

function cancelByUser(vipps: VippsPayments, payment: VippsPayment): Reply {
  vipps.abort(payment);
  return redirect(payment.returnUrl ?? "/");
}

/** What the landing page and "the app" show of a payment. */
function pageView(payment: VippsPayment) {
  return {
    token: payment.landingToken,
    amount: money(payment.amount.value, payment.amount.currency),
    description: payment.description ?? "Betaling",
    merchant: "Lekebytte",
  };
}
