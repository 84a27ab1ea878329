import { useSyncExternalStore } from "react";
import { getConsent, onConsentChange, type ConsentChoice } from "./consent";

/** The visitor's analytics choice, re-rendering when it changes (in this tab or another). */
export function useConsent(): ConsentChoice | null {
  return useSyncExternalStore(onConsentChange, getConsent, () => null);
}
