// What the Worker answers when a session cannot be used or renewed (401). Sign-in's own refusals
// (wrong password, unconfirmed e-mail, used link) are the error codes' defaults in errors.ts.

export const AUTH_REFUSALS = {
  sessionExpired: "Økten er utløpt. Logg inn på nytt.",
  renewedElsewhere: "Økten er fornyet i en annen fane. Last siden på nytt.",
} as const;
