// The consent banner is static HTML in index.html (outside #root), painted with the page; this binds
// it. The answer is mirrored onto <html data-consent>, which hides the banner through index.html's
// own CSS: the same attribute its one-line <head> script sets for a visitor who answered on an
// earlier visit, so nobody who answered sees it flash (docs/decisions/102).
import { getConsent, onConsentChange, setConsent } from "./consent";

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
 * The buttons store the answer as the privacy page's settings do (setConsent); the change event
 * hides the banner, and the analytics root starts page views on "Godta analyse". Returns a cleanup.
 */
export function bindConsentBanner(doc: Document = document): () => void {
  markConsent();
  const stop = onConsentChange(markConsent);
  const banner = doc.getElementById(CONSENT_BANNER_ID);
  if (!banner) return stop;
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const choice = target?.closest<HTMLElement>("[data-consent-choice]")?.dataset.consentChoice;
    if (choice === "necessary" || choice === "analytics") {
      setConsent(choice);
      return;
    }
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
