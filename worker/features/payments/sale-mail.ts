// E-mails about a sale: the seller learns about it, the buyer gets a receipt; a buyer whose payment
// lost the race learns that it was refunded or released.
import { AUTO_RELEASE_HOURS } from "../../../domain/orders";
import { ORDER_TEXTS } from "../../../domain/order-texts";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { shortOrderId } from "../../../domain/payments";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import type { Mail } from "../mail/mail";

const PROVIDER_LABEL = { stripe: "kort", vipps: "Vipps" } as const;
const PAID_WITH = { stripe: "Kort", vipps: "Vipps" } as const;

export interface SaleFacts {
  title: string;
  amount: number;
  provider: "stripe" | "vipps";
  buyerName: string;
  sellerName: string;
  sellerEmail: string;
  /** Null when there is no conversation (the buyer deleted their account in the meantime). */
  conversationId: string | null;
  platformFee: number;
  /** Øre of the buyer's payment that is shipping (a sent toy), 0 for a toy picked up; `amount` is the toy's price. */
  shipping: number;
}

/** The system message in the buyer–seller conversation. */
export function saleMessage(f: Pick<SaleFacts, "title" | "amount" | "provider" | "buyerName" | "shipping">): string {
  const price = f.shipping > 0 ? `${formatMinorUnits(f.amount)} + ${formatMinorUnits(f.shipping)} i frakt` : formatMinorUnits(f.amount);
  const next =
    f.shipping > 0 ? "Kjøperen har valgt sending: sendekoden kommer her i samtalen." : "Avtal henting eller levering her i samtalen.";
  return `«${f.title}» er solgt til ${f.buyerName} for ${price} (betalt med ${PROVIDER_LABEL[f.provider]} i Lekebytte). Betalingen er bekreftet. ${next}`;
}

export function saleMail(env: Bindings, f: SaleFacts): Mail {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const chat = f.conversationId ? `${origin}/chat/${f.conversationId}` : null;
  // The money is held until the buyer has the toy (decision 105).
  const held =
    f.shipping > 0
      ? "Kjøperen har valgt sending. Du får sendekoden og fristen for å levere pakken i samtalen og på e-post når frakten er bestilt. Pengene holdes trygt til pakken er levert; de utbetales når kjøperen har bekreftet, senest 48 timer etter at pakken er levert."
      : "Pengene holdes trygt til kjøperen har fått varen. Trykk «Overlevert til kjøper» i samtalen når du har levert den; pengene utbetales når kjøperen har bekreftet, senest 48 timer etter overleveringen.";
  const payout =
    f.provider === "stripe"
      ? `${held} De kommer til Stripe-kontoen din og utbetales etter Stripes vanlige utbetalingsplan.`
      : `${held} Vipps-betalingen går til ${env.APP_NAME}, som betaler beløpet videre til Stripe-kontoen din.`;
  const fee = f.platformFee > 0 ? ` ${env.APP_NAME} trekker et gebyr på ${formatMinorUnits(f.platformFee)}.` : "";
  const next = chat
    ? `Avtal henting eller levering med kjøperen i samtalen:\n${chat}`
    : `Salget står under «Mine salg» på profilen din: ${origin}/profile`;
  const text = `Hei ${f.sellerName}!\n\n${f.buyerName} har kjøpt «${f.title}» for ${formatMinorUnits(f.amount)} (betalt med ${PROVIDER_LABEL[f.provider]}). Annonsen er markert som solgt.\n\n${payout}${fee}\n\n${next}\n\nHilsen ${env.APP_NAME}`;
  return {
    to: f.sellerEmail,
    subject: `Du har solgt «${f.title}»`,
    text,
    html: `<p>Hei ${escapeHtml(f.sellerName)}!</p><p>${escapeHtml(f.buyerName)} har kjøpt «${escapeHtml(f.title)}» for ${escapeHtml(formatMinorUnits(f.amount))} (betalt med ${PROVIDER_LABEL[f.provider]}). Annonsen er markert som solgt.</p><p>${escapeHtml(payout)}${escapeHtml(fee)}</p><p>${chat ? `<a href="${escapeHtml(chat)}">Gå til samtalen med kjøperen</a>` : `<a href="${escapeHtml(`${origin}/profile`)}">Se salget på profilen din</a>`}</p>`,
  };
}

export interface ReceiptFacts {
  to: string;
  buyerName: string;
  sellerName: string;
  title: string;
  /** What the buyer paid, in øre: the price, as the seller's fee is taken from the seller's share. */
  amount: number;
  provider: "stripe" | "vipps";
  orderId: string;
  paidAt: string;
  /** Null when there is no conversation (the seller deleted their account in the meantime). */
  conversationId: string | null;
  /** The result page's `session_id`, for the order's details when there is no chat. */
  providerRef: string | null;
}

/**
 * The buyer's receipt (decision 117): what was bought, from whom, for how much and how, the order's
 * reference as the details page shows it, and that the money is held until they confirm receipt.
 * The buyer pays no fee (the platform's fee comes out of the seller's share, decision 033): the fee
 * line says so.
 */
export function receiptMail(env: Bindings, f: ReceiptFacts): Mail {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const link = f.conversationId
    ? `${origin}/chat/${f.conversationId}`
    : `${origin}/betaling-fullfort?session_id=${encodeURIComponent(f.providerRef ?? "")}`;
  const lines: [string, string][] = [
    ["Leke", `«${f.title}»`],
    ["Selger", f.sellerName],
    ["Pris", formatMinorUnits(f.amount)],
    ["Gebyr", formatMinorUnits(0)],
    ["Totalt betalt", formatMinorUnits(f.amount)],
    ["Betalt med", PAID_WITH[f.provider]],
    ["Ordrereferanse", shortOrderId(f.orderId)],
    ["Betalt", formatDateTime(f.paidAt)],
  ];
  const held =
    `${ORDER_TEXTS.buyerHeld} (trygg betaling): ${env.APP_NAME} betaler dem ut til selgeren først når du trykker «${ORDER_TEXTS.confirmReceived}» i samtalen. ` +
    `Når selgeren har markert leken som overlevert, har du ${AUTO_RELEASE_HOURS} timer på å bekrefte eller trykke «${ORDER_TEXTS.reportProblem}» før pengene utbetales.`;
  const next = f.conversationId ? "Avtal henting eller levering med selgeren og følg bestillingen i samtalen:" : "Se bestillingen her:";
  const text =
    `Hei ${f.buyerName}!\n\nTakk for kjøpet. Her er kvitteringen din.\n\n${lines.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n` +
    `${held}\n\n${next}\n${link}\n\nHilsen ${env.APP_NAME}`;
  const html =
    `<p>Hei ${escapeHtml(f.buyerName)}!</p><p>Takk for kjøpet. Her er kvitteringen din.</p>` +
    `<table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>` +
    `<p>${escapeHtml(held)}</p><p><a href="${escapeHtml(link)}">${f.conversationId ? "Gå til samtalen med selgeren" : "Se bestillingen"}</a></p>`;
  return { to: f.to, subject: `Kvittering for «${f.title}»`, text, html };
}

export function releasedMail(
  env: Bindings,
  f: { to: string; buyerName: string; title: string; amount: number; provider: "stripe" | "vipps" },
): Mail {
  const how = f.provider === "stripe" ? "er refundert til kortet ditt" : "er frigitt i Vipps, og du er ikke belastet";
  const text = `Hei ${f.buyerName}!\n\n«${f.title}» ble solgt til en annen kjøper like før betalingen din ble bekreftet, så kjøpet ble ikke gjennomført. Beløpet ${formatMinorUnits(f.amount)} ${how}.\n\nHilsen ${env.APP_NAME}`;
  return {
    to: f.to,
    subject: `Kjøpet av «${f.title}» ble ikke gjennomført`,
    text,
    html: `<p>Hei ${escapeHtml(f.buyerName)}!</p><p>«${escapeHtml(f.title)}» ble solgt til en annen kjøper like før betalingen din ble bekreftet, så kjøpet ble ikke gjennomført. Beløpet ${escapeHtml(formatMinorUnits(f.amount))} ${how}.</p>`,
  };
}
