// The e-mails of saved-search alerts: "Straks" (one saved search, its new listings) and the daily
// digest (every saved search of one user with a daily alert). Each saved search in a mail carries
// its own unsubscribe link, which works without signing in (docs/decisions/041-saved-search-alerts.md).
import { formatPrice } from "../../../domain/format";
import { SAVED_SEARCH_MAIL_LISTINGS, SAVED_SEARCHES_PATH, UNSUBSCRIBE_PATH } from "../../../domain/saved-searches";
import type { Bindings } from "../../env";
import { escapeHtml } from "../../lib/html";
import { signUnsubscribeToken } from "./unsubscribe-token";
import type { Mail } from "../mail/mail";

export interface AlertListing {
  id: string;
  title: string;
  price: number | null;
  is_free: number;
  seo_slug: string;
}

export interface AlertSearch {
  id: string;
  name: string;
  query: string;
  user_id: string;
}

export interface AlertRecipient {
  email: string;
  displayName: string | null;
}

interface Section {
  search: AlertSearch;
  listings: AlertListing[];
  unsubscribe: string;
  searchUrl: string;
}

const origin = (env: Bindings) => env.APP_ORIGIN.replace(/\/$/, "");

async function section(env: Bindings, search: AlertSearch, listings: AlertListing[], now: Date): Promise<Section> {
  const token = await signUnsubscribeToken(env, search.id, search.user_id, now);
  return {
    search,
    listings,
    unsubscribe: `${origin(env)}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`,
    searchUrl: `${origin(env)}/search${search.query ? `?${search.query}` : ""}`,
  };
}

const listingUrl = (env: Bindings, l: AlertListing) => `${origin(env)}/annonse/${encodeURIComponent(l.seo_slug)}`;
const price = (l: AlertListing) => formatPrice(l.price, l.is_free === 1);
const annonser = (n: number) => (n === 1 ? "1 ny annonse" : `${n} nye annonser`);

function sectionText(env: Bindings, s: Section): string {
  const shown = s.listings.slice(0, SAVED_SEARCH_MAIL_LISTINGS);
  const lines = shown.map((l) => `• ${l.title} – ${price(l)}\n  ${listingUrl(env, l)}`);
  const more = s.listings.length - shown.length;
  if (more > 0) lines.push(`… og ${more} til.`);
  return `${lines.join("\n")}\n\nSe alle treff: ${s.searchUrl}\n\nSlå av varselet for «${s.search.name}» (du trenger ikke logge inn): ${s.unsubscribe}`;
}

function sectionHtml(env: Bindings, s: Section): string {
  const shown = s.listings.slice(0, SAVED_SEARCH_MAIL_LISTINGS);
  const items = shown
    .map((l) => `<li><a href="${escapeHtml(listingUrl(env, l))}">${escapeHtml(l.title)}</a> – ${escapeHtml(price(l))}</li>`)
    .join("");
  const more = s.listings.length - shown.length;
  return (
    `<ul>${items}</ul>${more > 0 ? `<p>… og ${more} til.</p>` : ""}` +
    `<p><a href="${escapeHtml(s.searchUrl)}">Se alle treff</a></p>` +
    `<p style="font-size:0.875em;color:#57534e"><a href="${escapeHtml(s.unsubscribe)}">Slå av varselet for «${escapeHtml(s.search.name)}»</a> (du trenger ikke logge inn)</p>`
  );
}

const greeting = (r: AlertRecipient) => r.displayName?.trim() || "der";

/** "Straks": the new listings of one saved search. */
export async function immediateAlertMail(
  env: Bindings,
  to: AlertRecipient,
  search: AlertSearch,
  listings: AlertListing[],
  now: Date = new Date(),
): Promise<Mail> {
  const s = await section(env, search, listings, now);
  const n = listings.length;
  const subject = n === 1 ? `Ny annonse for «${search.name}»: ${listings[0].title}` : `${annonser(n)} for «${search.name}»`;
  const intro = `Det er lagt ut ${n === 1 ? "en ny annonse" : annonser(n)} som passer til det lagrede søket ditt «${search.name}»:`;
  const manage = `${origin(env)}${SAVED_SEARCHES_PATH}`;
  return {
    to: to.email,
    subject,
    text: `Hei ${greeting(to)}!\n\n${intro}\n\n${sectionText(env, s)}\n\nDu får denne e-posten fordi du har slått på varsel for søket hos ${env.APP_NAME}. Endre varslene dine: ${manage}\n\nHilsen ${env.APP_NAME}`,
    html:
      `<p>Hei ${escapeHtml(greeting(to))}!</p><p>${escapeHtml(intro)}</p>${sectionHtml(env, s)}` +
      `<p>Du får denne e-posten fordi du har slått på varsel for søket hos ${escapeHtml(env.APP_NAME)}. <a href="${escapeHtml(manage)}">Endre varslene dine</a></p>`,
  };
}

/** The daily digest: one mail with a section per saved search that has new listings. */
export async function digestMail(
  env: Bindings,
  to: AlertRecipient,
  groups: { search: AlertSearch; listings: AlertListing[] }[],
  now: Date = new Date(),
): Promise<Mail> {
  const sections = await Promise.all(groups.map((g) => section(env, g.search, g.listings, now)));
  const subject =
    groups.length === 1 ? `Dagens nye annonser for «${groups[0].search.name}»` : `Dagens nye annonser fra ${groups.length} lagrede søk`;
  const intro =
    groups.length === 1
      ? "Her er dagens nye annonser fra det lagrede søket ditt."
      : "Her er dagens nye annonser fra de lagrede søkene dine.";
  const manage = `${origin(env)}${SAVED_SEARCHES_PATH}`;
  return {
    to: to.email,
    subject,
    text:
      `Hei ${greeting(to)}!\n\n${intro}\n\n` +
      sections.map((s) => `«${s.search.name}» – ${annonser(s.listings.length)}\n\n${sectionText(env, s)}`).join("\n\n――――――――\n\n") +
      `\n\nDu får denne e-posten fordi du har valgt daglig oppsummering hos ${env.APP_NAME}. Endre varslene dine: ${manage}\n\nHilsen ${env.APP_NAME}`,
    html:
      `<p>Hei ${escapeHtml(greeting(to))}!</p><p>${escapeHtml(intro)}</p>` +
      sections
        .map((s) => `<h2>«${escapeHtml(s.search.name)}» – ${escapeHtml(annonser(s.listings.length))}</h2>${sectionHtml(env, s)}`)
        .join("") +
      `<p>Du får denne e-posten fordi du har valgt daglig oppsummering hos ${escapeHtml(env.APP_NAME)}. <a href="${escapeHtml(manage)}">Endre varslene dine</a></p>`,
  };
}
