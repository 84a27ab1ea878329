// A second module script of index.html: Vite bundles it into the entry chunk, after web/main.tsx.
// The static consent banner's buttons already work from index.html's <head> script; this keeps
// <html data-consent> in step with the stored answer and lets the banner's link navigate inside the
// app (web/analytics/consentBanner.ts).
import { bindConsentBanner } from "./analytics/consentBanner";

bindConsentBanner();
