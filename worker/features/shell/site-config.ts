import type { Bindings } from "../../env";

/** Public site configuration the SPA needs (footer, contact page, the sign-in choices). */
export function siteConfig(env: Bindings) {
  return {
    appName: env.APP_NAME,
    contactEmail: env.CONTACT_EMAIL,
    contactPhone: env.CONTACT_PHONE,
    contactAddress: env.CONTACT_ADDRESS,
    /** "Logg inn med Vipps" is offered when the sales unit's login keys are set (worker/features/auth/vipps-oidc.ts). */
    vippsLogin: Boolean(env.VIPPS_CLIENT_ID && env.VIPPS_CLIENT_SECRET),
  };
}
