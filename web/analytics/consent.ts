// The visitor's analytics choice ("Bare nødvendige" / "Godta analyse"). Remembering the choice is
// itself necessary storage; nothing else about analytics is stored on the device without consent
// (docs/decisions/037-analytics-consent.md).

export type ConsentChoice = "necessary" | "analytics";

export const CONSENT_KEY = "lb_consent";
const CHANGE_EVENT = "lekebytte:consent";

/** Used when the browser refuses storage: the choice then lasts for this page only. */
let inMemory: ConsentChoice | null = null;

export function getConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(CONSENT_KEY);
    return value === "necessary" || value === "analytics" ? value : null;
  } catch {
    return inMemory; // storage blocked
  }
}

export function hasAnalyticsConsent(): boolean {
  return getConsent() === "analytics";
}

export function setConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_KEY, choice);
  } catch {
    inMemory = choice; // storage blocked: the choice holds until the page is closed
  }
  window.dispatchEvent(new CustomEvent(CHANGE_EVENT));
}

/** Calls `listener` when the choice changes in this tab or another. */
export function onConsentChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", onStorage);
  };
}
