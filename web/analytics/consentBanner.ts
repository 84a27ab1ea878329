// The consent banner is static HTML in index.html (outside #root), painted with the page. Its buttons
// are answered by index.html's own <head> script, before any of the app's code runs: it stores the
// answer as consent.ts does, sets <html data-consent> (which hides the banner through index.html's
// CSS) and announces the change (docs/decisions/102, 121). This keeps the attribute in step with the
// stored answer for the app (the privacy page's settings, another tab) and lets the banner's link
// navigate inside the app.
import { getConsent, onConsentChange } from "./consent";

export const CONSENT_BANNER_ID = "consent-banner";

/** Set by the app once its router runs: the banner's link then navigates inside the SPA. */
let navigateTo: ((path: string) => void) | null = null;

/** The banner's link uses `navigate` from now on (until the returned cleanup runs). */
export function setConsentBannerNavigation(navigate: (path: string) => void): () => void {
  navigateTo = navigate;
  return () => {
    if (navigateTo === navigate) navigateTo = null;
  };
}

/** <html data-consent> follows the stored answer (this tab or another). */
export function markConsent(): void {
  const choice = getConsent();
  if (choice) document.documentElement.setAttribute("data-consent", choice);
  else document.documentElement.removeAttribute("data-consent");
}

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.defaultPrevented && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * <html data-consent> follows every change of the answer (the analytics root starts page views on
 * "Godta analyse" from the same change event), and the banner's link navigates inside the app once
 * the router runs. Returns a cleanup.
 */
export function bindConsentBanner(doc: Document = document): () => void {
  markConsent();
  const stop = onConsentChange(markConsent);
  const banner = doc.getElementById(CONSENT_BANNER_ID);
  if (!banner) return stop;
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest("a");
    if (!link || !navigateTo || !plainClick(event) || link.origin !== window.location.origin) return;
    event.preventDefault();
    navigateTo(link.pathname + link.search + link.hash);
  };
  banner.addEventListener("click", onClick);
  return () => {
    stop();
    banner.removeEventListener("click", onClick);
  };
}
