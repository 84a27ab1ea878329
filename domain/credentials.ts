// The texts and times of getting back into an account and keeping it safe: "Glemt passord?",
// "Lag nytt passord", "Endre passord", "Endre e-post" and "Innlogget på" (docs/product.md
// "Password and e-mail", docs/decisions/125-account-recovery.md).

/** A "Lag nytt passord" link works this long after it was asked for. */
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
/** An e-mail change waits this long for the new address's confirmation link. */
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 3600;
/** The old address's "stop" link works this long, also after the change was confirmed. */
export const EMAIL_CHANGE_STOP_TTL_SECONDS = 7 * 24 * 3600;

/** The one answer to "Glemt passord?", whether or not the address has an account. */
export const FORGOT_PASSWORD_ANSWER = "Hvis adressen er registrert, har vi sendt deg en e-post med en lenke for å lage nytt passord.";

/** Why a link from one of these mails cannot be used (400 INVALID_CODE); each page offers a new one. */
export const LINK_REFUSALS = {
  used: "Lenken er allerede brukt. Be om en ny lenke hvis du trenger det.",
  expired: "Lenken er utløpt. Be om en ny lenke.",
  replaced:
    "Lenken gjelder ikke lenger fordi det er bedt om en nyere lenke eller passordet er endret. Bruk den nyeste lenken, eller be om en ny.",
  invalid: "Lenken er ugyldig. Sjekk at du har med hele lenken fra e-posten, eller be om en ny.",
} as const;

export type LinkRefusal = keyof typeof LINK_REFUSALS;

export const CREDENTIAL_MESSAGES = {
  passwordsDiffer: "Passordene er ikke like.",
  newPasswordMissing: "Skriv inn et nytt passord.",
  emailMissing: "Skriv inn e-postadressen din.",
  newEmailMissing: "Skriv inn den nye e-postadressen.",
  sameEmail: "Dette er allerede e-postadressen din.",
  emailTaken: "Denne e-postadressen tilhører en annen konto.",
  /** The answer to a requested e-mail change (202). */
  emailChangeSent: "Vi har sendt en bekreftelseslenke til den nye adressen. E-postadressen endres først når du åpner lenken.",
  /** After the confirmation link, the old address's stop link could not put the old address back. */
  oldEmailTaken: "E-postadressen kan ikke settes tilbake fordi den nå tilhører en annen konto. Kontakt oss, så hjelper vi deg.",
  sessionNotFound: "Fant ikke denne innloggingen. Den kan allerede være logget ut.",
} as const;
