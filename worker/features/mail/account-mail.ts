// The mails of getting back into an account and keeping it safe (docs/product.md "Password and
// e-mail"): the "Lag nytt passord" link, "Passordet ditt er endret", and an e-mail change's
// confirmation (to the new address) and notice with its stop link (to the old one).
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import type { Mail } from "./mail";

/** A paragraph of text, or a link shown as its own paragraph (the address written out in the text part). */
type Part = string | { href: string; label: string };

function compose(env: Bindings, to: string, subject: string, displayName: string | null, parts: Part[]): Mail {
  const name = displayName?.trim() || "der";
  const text = [`Hei ${name}!`, ...parts.map((p) => (typeof p === "string" ? p : p.href)), `Hilsen ${env.APP_NAME}`].join("\n\n");
  const html = [
    `<p>Hei ${escapeHtml(name)}!</p>`,
    ...parts.map((p) =>
      typeof p === "string" ? `<p>${escapeHtml(p)}</p>` : `<p><a href="${escapeHtml(p.href)}">${escapeHtml(p.label)}</a></p>`,
    ),
    `<p>Hilsen ${escapeHtml(env.APP_NAME)}</p>`,
  ].join("");
  return { to, subject, text, html };
}

export function passwordResetMail(env: Bindings, to: string, displayName: string | null, link: string): Mail {
  return compose(env, to, `Lag nytt passord hos ${env.APP_NAME}`, displayName, [
    `Noen, forhåpentligvis du, har bedt om å lage nytt passord for kontoen din hos ${env.APP_NAME}. Åpne lenken under for å velge et nytt passord:`,
    { href: link, label: "Lag nytt passord" },
    "Lenken er gyldig i 60 minutter og kan brukes én gang. Ba du ikke om dette, kan du se bort fra denne e-posten: passordet ditt er ikke endret.",
  ]);
}

/** After "Lag nytt passord" or "Endre passord": what happened, and what to do if it was not you. */
export function passwordChangedMail(env: Bindings, origin: string, to: string, displayName: string | null): Mail {
  return compose(env, to, "Passordet ditt er endret", displayName, [
    `Passordet til kontoen din hos ${env.APP_NAME} er endret, og alle andre innlogginger er logget ut.`,
    "Var det ikke deg? Lag et nytt passord med en gang med «Glemt passord?», så blir alle som er logget inn på kontoen, logget ut:",
    { href: `${origin}/auth/glemt-passord`, label: "Lag nytt passord" },
    `Under «Innlogget på» på profilen din ser du hvor kontoen er logget inn. Trenger du hjelp, skriv til ${env.CONTACT_EMAIL}.`,
  ]);
}

export function emailChangeConfirmMail(env: Bindings, to: string, displayName: string | null, link: string): Mail {
  return compose(env, to, `Bekreft den nye e-postadressen din hos ${env.APP_NAME}`, displayName, [
    `Du har bedt om å bruke denne e-postadressen for kontoen din hos ${env.APP_NAME}. Bekreft den ved å åpne lenken under:`,
    { href: link, label: "Bekreft e-postadressen" },
    "E-postadressen endres først når du åpner lenken. Lenken er gyldig i 24 timer og kan brukes én gang. Ba du ikke om dette, kan du se bort fra denne e-posten.",
  ]);
}

export function emailChangeNoticeMail(
  env: Bindings,
  change: { oldEmail: string; newEmail: string; displayName: string | null },
  stopLink: string,
): Mail {
  return compose(env, change.oldEmail, `E-postadressen din hos ${env.APP_NAME} endres`, change.displayName, [
    `Det er bedt om å endre e-postadressen til kontoen din hos ${env.APP_NAME} fra ${change.oldEmail} til ${change.newEmail}. Den endres når lenken vi har sendt til den nye adressen, blir åpnet.`,
    "Var det ikke deg? Stopp endringen her:",
    { href: stopLink, label: "Stopp endringen" },
    "Lenken virker i 7 dager, også etter at endringen er bekreftet: da får kontoen tilbake denne adressen, og alle innlogginger blir logget ut. Lag deretter et nytt passord med «Glemt passord?».",
  ]);
}
