// E-mails about a sale: the seller learns about it; a buyer whose payment lost the race learns that
// it was refunded or released.
import { formatMinorUnits } from "../../../domain/format";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import type { Mail } from "../mail/mail";

const PROVIDER_LABEL = { stripe: "kort", vipps: "Vipps" } as const;

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
}

/** The system message in the buyer–seller conversation. */
export function saleMessage(f: Pick<SaleFacts, "title" | "amount" | "provider" | "buyerName">): string {
  return `«${f.title}» er solgt til ${f.buyerName} for ${formatMinorUnits(f.amount)} (betalt med ${PROVIDER_LABEL[f.provider]} i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.`;
}

export function saleMail(env: Bindings, f: SaleFacts): Mail {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const chat = f.conversationId ? `${origin}/chat/${f.conversationId}` : null;
  // The money is held until the buyer has the toy (decision 105).
  const held =
    "Pengene holdes trygt til kjøperen har fått varen. Trykk «Overlevert til kjøper» i samtalen når du har levert den; pengene utbetales når kjøperen har bekreftet, senest 48 timer etter overleveringen.";
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
