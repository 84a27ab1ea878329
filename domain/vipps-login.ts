// "Logg inn med Vipps" (docs/product.md "Vipps Login", docs/decisions/128-vipps-login.md): the texts
// and limits both the Worker and the web use; the request bodies are in schemas/vipps-login.ts.
/** Vipps' own wording for its button (its design guidelines), never translated or shortened. */
export const VIPPS_LOGIN_BUTTON = "Logg inn med Vipps";

/** The scopes asked for: the ID token (`openid`), and the name, e-mail and phone a new account needs. */
export const VIPPS_LOGIN_SCOPES = "openid name email phoneNumber";

/** A started login waits this long for its callback (Vipps' own login page gives up sooner). */
export const VIPPS_LOGIN_STATE_TTL_SECONDS = 10 * 60;
/** How long a matched account waits for its proof (the password, or the mailed link). */
export const VIPPS_LINK_REQUEST_TTL_SECONDS = 30 * 60;

export const VIPPS_LOGIN_TEXTS = {
  linkButton: "Koble til Vipps",
  unlinkButton: "Koble fra Vipps",
  linked: "Vipps-kontoen din er koblet til Lekebytte. Neste gang kan du logge inn med Vipps.",
  unlinked: "Vipps er koblet fra kontoen din.",
  linkMailSent: "Vi har sendt deg en e-post med en lenke. Åpne den for å koble Vipps til kontoen din.",
} as const;

/** What the Worker answers when a Vipps login cannot go on (each with its status in the routes). */
export const VIPPS_LOGIN_REFUSALS = {
  notConfigured: "Innlogging med Vipps er ikke tilgjengelig akkurat nå. Logg inn med e-post og passord.", // 503
  expired: "Innloggingen med Vipps er utløpt eller allerede brukt. Prøv å logge inn med Vipps på nytt.", // 400
  cancelled: "Du avbrøt innloggingen i Vipps.", // 400
  failed: "Vi kunne ikke bekrefte innloggingen fra Vipps. Prøv igjen.", // 502
  emailMissing: "Vipps ga oss ingen e-postadresse. Legg inn en e-postadresse i Vipps-appen og prøv igjen.", // 400
  emailUnverified:
    "E-postadressen din i Vipps er ikke bekreftet. Bekreft den i Vipps-appen, eller logg inn med e-post og passord og koble til Vipps fra profilen din.", // 409
  linkedElsewhere: "Denne Vipps-kontoen er allerede koblet til en annen Lekebytte-konto.", // 409
  linkExpired: "Koblingen er utløpt eller allerede brukt. Logg inn med Vipps på nytt.", // 400
  notLinked: "Kontoen din er ikke koblet til Vipps.", // 404
  alreadyLinked: "Kontoen din er allerede koblet til Vipps.", // 409
  noPassword:
    "Kontoen din har ikke noe passord, så Vipps er eneste måte å logge inn på. Du kan koble fra Vipps når kontoen har et passord.", // 409
} as const;

/** An MSISDN from Vipps (4791234567) as people write it: "+47 912 34 567". Other countries keep their digits. */
export function formatPhone(msisdn: string): string {
  const norwegian = /^47(\d{3})(\d{2})(\d{3})$/.exec(msisdn);
  return norwegian ? `+47 ${norwegian[1]} ${norwegian[2]} ${norwegian[3]}` : `+${msisdn}`;
}
