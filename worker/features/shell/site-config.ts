import type { Bindings } from "../../env";

/** Public site configuration the SPA needs (footer, contact page). */
export function siteConfig(env: Bindings) {
  return {
    appName: env.APP_NAME,
    contactEmail: env.CONTACT_EMAIL,
    contactPhone: env.CONTACT_PHONE,
    contactAddress: env.CONTACT_ADDRESS,
  };
}
