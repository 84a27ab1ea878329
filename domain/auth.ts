// What the Worker answers when a session cannot be used or renewed (401). Sign-in's own refusals
// (wrong password, unconfirmed e-mail, used link) are the error codes' defaults in errors.ts.

export const AUTH_REFUSALS = {
  sessionExpired: "Økten er utløpt. Logg inn på nytt.",
  renewedElsewhere: "Økten er fornyet i en annen fane. Last siden på nytt.",
} as const;

/**
 * What the plain sign-in and "Glemt passord?" forms (without JavaScript) are sent back with:
 * `/auth?feil=<code>` or `/auth/glemt-passord?feil=<code>` shows the text above the form
 * (docs/decisions/126-sign-in-without-javascript.md). Only these codes are read; anything else in
 * the address shows nothing.
 */
export const FORM_ERRORS = {
  mangler: "Vennligst fyll ut e-post og passord.",
  innlogging: "E-post eller passord er feil. Prøv igjen.",
  "ikke-bekreftet": "E-postadressen er ikke bekreftet ennå. Sjekk innboksen din, eller be om en ny bekreftelses-e-post.",
  "mangler-epost": "Skriv inn e-postadressen din.",
  "ugyldig-epost": "Vennligst oppgi en gyldig e-postadresse",
  "for-mange": "For mange forsøk. Vent litt og prøv igjen.",
  ukjent: "Noe gikk galt. Prøv igjen.",
} as const;

export type FormErrorCode = keyof typeof FORM_ERRORS;

export function formError(code: string | null): string | null {
  return code && Object.hasOwn(FORM_ERRORS, code) ? FORM_ERRORS[code as FormErrorCode] : null;
}
