// E-mails about held money (decision 105): every change is mailed to both parties, the buyer is
// reminded before the automatic release, and a seller whose account refused a transfer is told
// what to fix. Plain words, a link to the deal's chat (or the profile without one).
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import type { Mail } from "../mail/mail";

export interface OrderMailFacts {
  to: string;
  name: string;
  title: string;
  conversationId: string | null;
}

export function orderMail(env: Bindings, f: OrderMailFacts, subject: string, body: string): Mail {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const link = f.conversationId ? `${origin}/chat/${f.conversationId}` : `${origin}/profile`;
  const linkText = f.conversationId ? "Gå til samtalen" : "Se kjøpet på profilen din";
  return {
    to: f.to,
    subject,
    text: `Hei ${f.name}!\n\n${body}\n\n${linkText}: ${link}\n\nHilsen ${env.APP_NAME}`,
    html: `<p>Hei ${escapeHtml(f.name)}!</p><p>${escapeHtml(body)}</p><p><a href="${escapeHtml(link)}">${linkText}</a></p>`,
  };
}

/** What each party is told after a change, by the state the money moved to. */
export function orderChangeMail(
  env: Bindings,
  f: OrderMailFacts & { role: "buyer" | "seller"; change: string; amount: number; refund: number; releaseAt: string | null },
): Mail {
  const t = `«${f.title}»`;
  const buyer = f.role === "buyer";
  switch (f.change) {
    case "handed_over":
      return orderMail(
        env,
        f,
        `${t} er markert som overlevert`,
        buyer
          ? `Selgeren har markert ${t} som overlevert. Trykk «Jeg har fått varen» i samtalen når du har den, eller «Meld fra om et problem» hvis noe er galt. Uten svar utbetales pengene til selgeren ${formatDateTime(f.releaseAt!)}.`
          : `Du har markert ${t} som overlevert. Pengene utbetales når kjøperen har bekreftet, senest ${formatDateTime(f.releaseAt!)}.`,
      );
    case "problem":
      return orderMail(
        env,
        f,
        `Problem med kjøpet av ${t}`,
        buyer
          ? `Vi har fått meldingen din om ${t}. Pengene holdes til en moderator har sett på saken, og du får e-post når den er avgjort.`
          : `Kjøperen har meldt fra om et problem med ${t}. Pengene holdes til en moderator har sett på saken. Svar gjerne kjøperen i samtalen.`,
      );
    case "released":
      return orderMail(
        env,
        f,
        `${t}: utbetalt til selger`,
        buyer
          ? `Kjøpet av ${t} er fullført, og pengene er utbetalt til selgeren. Du kan nå gi selgeren en vurdering.`
          : `Pengene for ${t} (${formatMinorUnits(f.amount)}) er utbetalt til deg. Du kan nå gi kjøperen en vurdering.`,
      );
    case "partially_refunded":
      return orderMail(
        env,
        f,
        `${t}: saken er avgjort`,
        `En moderator har avgjort saken om ${t}: ${formatMinorUnits(f.refund)} er betalt tilbake til kjøperen, og ${formatMinorUnits(f.amount - f.refund)} er utbetalt til selgeren.`,
      );
    case "cancelled":
      return orderMail(
        env,
        f,
        `Kjøpet av ${t} er avbrutt`,
        buyer
          ? `Du har avbrutt kjøpet av ${t}. Pengene er betalt tilbake (${formatMinorUnits(f.amount)}).`
          : `Kjøperen har avbrutt kjøpet av ${t} fordi varen ikke var overlevert innen 7 dager. Pengene er betalt tilbake til kjøperen, og annonsen er aktiv igjen.`,
      );
    default:
      // refunded (by a moderator, or because the seller deleted the account)
      return orderMail(
        env,
        f,
        `${t}: pengene er betalt tilbake`,
        buyer
          ? `Pengene for ${t} er betalt tilbake til deg (${formatMinorUnits(f.amount)}).`
          : `En moderator har avgjort saken om ${t}: pengene er betalt tilbake til kjøperen, og annonsen er aktiv igjen.`,
      );
  }
}

export function releaseReminderMail(env: Bindings, f: OrderMailFacts & { releaseAt: string }): Mail {
  return orderMail(
    env,
    f,
    `Har du fått «${f.title}»?`,
    `Selgeren har markert «${f.title}» som overlevert. Pengene utbetales automatisk til selgeren ${formatDateTime(f.releaseAt)}. Har du fått varen, trykk «Jeg har fått varen». Er noe galt, trykk «Meld fra om et problem» før det.`,
  );
}

export function payoutFailedMail(env: Bindings, f: OrderMailFacts & { fix: string }): Mail {
  return orderMail(
    env,
    f,
    `Vi kunne ikke utbetale pengene for «${f.title}»`,
    `Kjøperen har fått «${f.title}», men Stripe tok ikke imot utbetalingen til kontoen din. ${f.fix} Pengene holdes trygt hos oss, og vi prøver igjen automatisk.`,
  );
}
