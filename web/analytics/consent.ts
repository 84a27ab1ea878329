// The visitor's analytics choice ("Bare nødvendige" / "Godta analyse"). Remembering the choice is
// itself necessary storage; nothing else about analytics is stored on the device without consent
// (docs/decisions/037-analytics-consent.md).

export type ConsentChoice = "necessary" | "analytics";

export const CONSENT_KEY = "lb_consent";
/** The change event, in this tab; index.html's banner script sends the same. */
export const CONSENT_CHANGE_EVENT = "lekebytte:consent";

const CONSENT_ATTRIBUTE = "data-consent";

const isChoice = (value: string | null): value is ConsentChoice => value === "necessary" || value === "analytics";

/**
 * The stored answer. When the browser refuses storage the answer lasts for this page only, kept on
 * <html data-consent>, where index.html's <head> script also puts a press on the banner made before
 * the app's code ran.
 */
export function getConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(CONSENT_KEY);
    return isChoice(value) ? value : null;
  } catch {
    const value = document.documentElement.getAttribute(CONSENT_ATTRIBUTE);
    return isChoice(value) ? value : null;
  }
}

export function hasAnalyticsConsent(): boolean {
  return getConsent() === "analytics";
}

/** Stores the answer as the banner's own script does (index.html), and announces the change. */
export function setConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_KEY, choice);
  } catch {
    // Storage blocked: the attribute below holds the answer until the page is closed.
  }
  document.documentElement.setAttribute(CONSENT_ATTRIBUTE, choice);
  window.dispatchEvent(new CustomEvent(CONSENT_CHANGE_EVENT));
}

/** Calls `listener` when the choice changes in this tab or another. */
export function onConsentChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_KEY) listener();
  };
  window.addEventListener(CONSENT_CHANGE_EVENT, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CONSENT_CHANGE_EVENT, listener);
    window.removeEventListener("storage", onStorage);
  };
}
