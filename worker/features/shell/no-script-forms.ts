// Sign-in and "Glemt passord?" without JavaScript (docs/decisions/126-sign-in-without-javascript.md):
// /auth and /auth/glemt-passord carry a plain HTML form inside a <noscript> in #root. A browser that
// runs the app never shows it (the app renders #root anew); one that does not gets a form that posts
// to the server (worker/features/auth/form-routes.ts), which answers with a redirect: on, signed in,
// or back here with `?feil=<code>` (or `?sendt=1`), shown from the codes' own texts only.
import { formError } from "../../../domain/auth";
import { FORGOT_PASSWORD_ANSWER } from "../../../domain/credentials";
import { safeReturnPath } from "../../../domain/return-path";
import { escapeHtml } from "../../lib/html";

// The app's own classes (its stylesheet is on the page), so the plain page looks like the app's.
const FIELD = "block min-h-11 w-full rounded-xl border border-stone-500 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500";
const LABEL = "mb-1 block text-sm font-medium text-stone-800";
const BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors bg-brand-700 text-white hover:bg-brand-800 min-h-11 px-4 text-base w-full";
const LINK = "font-medium text-brand-800 underline underline-offset-2";
const CARD = "mt-6 space-y-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm";

function field(id: string, label: string, attributes: string): string {
  return `<div><label for="${id}" class="${LABEL}">${label}</label><input id="${id}" class="${FIELD}" ${attributes}></div>`;
}

function alert(text: string | null): string {
  return text
    ? `<p role="alert" class="rounded-xl border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800">${escapeHtml(text)}</p>`
    : "";
}

function page(title: string, body: string): string {
  // The shell's "needs JavaScript" line (index.html #no-js) is not true of this page.
  return `<noscript><style>#no-js{display:none}</style><main class="mx-auto w-full max-w-md px-4 py-8"><h1 class="text-center text-2xl font-extrabold tracking-tight text-stone-900">${title}</h1>${body}</main></noscript>`;
}

function signIn(url: URL): string {
  const next = safeReturnPath(url.searchParams.get("next"));
  return page(
    "Logg inn",
    `<form method="post" action="/api/auth/signin/form" class="${CARD}" aria-label="Logg inn">` +
      alert(formError(url.searchParams.get("feil"))) +
      (next ? `<input type="hidden" name="next" value="${escapeHtml(next)}">` : "") +
      field("nojs-email", "E-post", 'type="email" name="email" autocomplete="email" required') +
      field("nojs-password", "Passord", 'type="password" name="password" autocomplete="current-password" required') +
      `<button type="submit" class="${BUTTON}">Logg inn</button>` +
      `<p class="text-center"><a href="/auth/glemt-passord" class="${LINK}">Glemt passord?</a></p>` +
      `<p class="text-center text-sm text-stone-700">Registrering krever JavaScript. Logg inn fungerer uten.</p></form>`,
  );
}

function forgotPassword(url: URL): string {
  const sent = url.searchParams.get("sendt") === "1";
  const back = `<p class="text-sm"><a href="/auth" class="${LINK}">Tilbake til innlogging</a></p>`;
  if (sent)
    return page(
      "Glemt passord?",
      `<div class="${CARD}"><p role="status" class="text-stone-900">${FORGOT_PASSWORD_ANSWER}</p>${back}</div>`,
    );
  return page(
    "Glemt passord?",
    `<form method="post" action="/api/auth/password/forgot/form" class="${CARD}" aria-label="Glemt passord">` +
      `<p class="text-stone-700">Skriv inn e-postadressen du bruker hos Lekebytte, så sender vi deg en lenke for å lage nytt passord.</p>` +
      alert(formError(url.searchParams.get("feil"))) +
      field("nojs-forgot-email", "E-post", 'type="email" name="email" autocomplete="email" required') +
      `<button type="submit" class="${BUTTON}">Send lenke</button>${back}</form>`,
  );
}

/** The plain form of /auth or /auth/glemt-passord, or null for any other page. */
export function noScriptForm(url: URL): string | null {
  if (/^\/auth\/?$/.test(url.pathname)) return signIn(url);
  if (/^\/auth\/glemt-passord\/?$/.test(url.pathname)) return forgotPassword(url);
  return null;
}
