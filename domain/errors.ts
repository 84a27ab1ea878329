// One error envelope for every API error (docs/style.md "API conventions").
export const ERROR_CODES = [
  "VALIDATION",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "EMAIL_TAKEN",
  "INVALID_CREDENTIALS",
  "EMAIL_NOT_CONFIRMED",
  "INVALID_CODE",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INVALID_SIGNATURE",
  "PROVIDER_ERROR",
  "SERVICE_UNAVAILABLE",
  "SUSPENDED",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string> };
}

/** Default Norwegian messages when a route has no more specific text. */
export const DEFAULT_ERROR_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION: "Ugyldige data. Sjekk feltene og prøv igjen.",
  UNAUTHENTICATED: "Du er ikke logget inn",
  FORBIDDEN: "Du har ikke tilgang til dette.",
  NOT_FOUND: "Ikke funnet",
  CONFLICT: "Dette er allerede gjort eller i konflikt med en annen endring.",
  EMAIL_TAKEN: "Denne e-postadressen er allerede registrert. Prøv å logge inn i stedet.",
  INVALID_CREDENTIALS: "E-post eller passord er feil. Prøv igjen.",
  EMAIL_NOT_CONFIRMED: "E-postadressen er ikke bekreftet ennå. Sjekk innboksen din, eller be om en ny bekreftelses-e-post.",
  INVALID_CODE: "Lenken er ugyldig, allerede brukt eller utløpt.",
  PAYLOAD_TOO_LARGE: "Forespørselen er for stor.",
  UNSUPPORTED_MEDIA_TYPE: "Filtypen eller innholdstypen støttes ikke.",
  RATE_LIMITED: "For mange forsøk. Vent litt og prøv igjen.",
  INVALID_SIGNATURE: "Ugyldig signatur.",
  PROVIDER_ERROR: "Kunne ikke starte betalingsprosessen. Prøv igjen.",
  SERVICE_UNAVAILABLE: "Tjenesten er ikke tilgjengelig akkurat nå. Prøv igjen senere.",
  SUSPENDED: "Kontoen din er utestengt. Du kan ikke legge ut annonser, sende meldinger, foreslå bytter eller kjøpe nå.",
  INTERNAL: "Noe gikk galt. Prøv igjen.",
};

/** The platform's own refusals (middleware and the app's body limit), before any feature runs. */
export const REQUEST_REFUSALS = {
  notConfigured: "Tjenesten er ikke ferdig satt opp. Prøv igjen senere.", // 503 while the configuration is unsafe (middleware/config.ts)
  foreignOrigin: "Forespørselen kom fra et annet nettsted og ble avvist.", // 403
  jsonOnly: "Forespørselen må sendes som JSON.", // 415
  tooLarge: "Forespørselen er for stor.", // 413
} as const;

export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 400,
  EMAIL_NOT_CONFIRMED: 403,
  INVALID_CODE: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INVALID_SIGNATURE: 400,
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  SUSPENDED: 403,
  INTERNAL: 500,
};

/** The page for a server error (the web's error screen and the Worker's page for a navigation that failed). */
export const SERVER_ERROR_TEXTS = {
  title: "Noe gikk galt",
  text: "Vi beklager, men noe gikk galt. Prøv å laste siden på nytt eller gå tilbake til forsiden.",
  codeHint: "Oppgi feilkoden hvis du kontakter oss.",
  home: "Gå til forsiden",
} as const;
