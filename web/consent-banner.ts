// A second module script of index.html: Vite bundles it into the entry chunk, after web/main.tsx.
// The static consent banner's buttons work as soon as the app's JavaScript has run, without waiting
// for React to render (web/analytics/consentBanner.ts).
import { bindConsentBanner } from "./analytics/consentBanner";

bindConsentBanner();
