import { z } from "./zod";
import {
  DISPLAY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  POSTAL_CODE_MAX_LENGTH,
  STREET_ADDRESS_MAX_LENGTH,
} from "../limits";
import { optionalSingleLineText, singleLineText } from "./user-text";

const MISSING_SIGNUP = "Vennligst fyll ut alle felt.";
const MISSING_SIGNIN = "Vennligst fyll ut e-post og passord.";

const email = z
  .string({ error: MISSING_SIGNUP })
  .trim()
  .toLowerCase()
  .min(1, MISSING_SIGNUP)
  .pipe(z.email("Vennligst oppgi en gyldig e-postadresse").max(EMAIL_MAX_LENGTH, "Vennligst oppgi en gyldig e-postadresse"));

/**
 * A password someone chooses (sign-up, "Lag nytt passord", "Endre passord"): one rule for all of
 * them, with the form's own message for an empty field.
 */
export function newPassword(missing: string) {
  return z
    .string({ error: missing })
    .min(1, missing)
    .min(PASSWORD_MIN_LENGTH, "Passordet må være minst 6 tegn")
    .max(PASSWORD_MAX_LENGTH, `Passordet kan være maks ${PASSWORD_MAX_LENGTH} tegn`);
}

export const signUpSchema = z.object({
  display_name: singleLineText(MISSING_SIGNUP).pipe(
    z.string().trim().min(1, MISSING_SIGNUP).max(DISPLAY_NAME_MAX_LENGTH, `Navnet kan være maks ${DISPLAY_NAME_MAX_LENGTH} tegn`),
  ),
  email,
  password: newPassword(MISSING_SIGNUP),
  postal_code: z
    .string()
    .trim()
    .max(POSTAL_CODE_MAX_LENGTH, "Postnummer kan være maks 4 tegn")
    .optional()
    .transform((v) => (v ? v : null)),
});

export const signInSchema = z.object({
  email: z.string({ error: MISSING_SIGNIN }).trim().toLowerCase().min(1, MISSING_SIGNIN).max(EMAIL_MAX_LENGTH),
  password: z.string({ error: MISSING_SIGNIN }).min(1, MISSING_SIGNIN).max(PASSWORD_MAX_LENGTH),
});

export const resendSchema = z.object({
  email: z
    .string({ error: "Skriv inn e-postadressen din først." })
    .trim()
    .toLowerCase()
    .min(1, "Skriv inn e-postadressen din først.")
    .max(EMAIL_MAX_LENGTH),
});

export const profileUpdateSchema = z.object({
  display_name: optionalSingleLineText()
    .pipe(z.string().trim().max(DISPLAY_NAME_MAX_LENGTH, `Navnet kan være maks ${DISPLAY_NAME_MAX_LENGTH} tegn`))
    .transform((v) => (v ? v : null)),
  postal_code: z
    .string()
    .max(10)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null))
    .refine((v) => v == null || /^\d{4}$/.test(v), "Postnummer må være 4 siffer"),
  /**
   * "Gateadresse": the sender's address on a parcel the user sends, never shown to others. Absent
   * leaves the stored one as it is (a form from before the field existed must not erase it);
   * empty or null removes it.
   */
  street_address: optionalSingleLineText("Gateadressen må være tekst")
    .pipe(z.string().trim().max(STREET_ADDRESS_MAX_LENGTH, `Gateadressen kan være maks ${STREET_ADDRESS_MAX_LENGTH} tegn`))
    .transform((v) => (v ? v : null))
    .optional(),
});

/** POST /api/auth/callback: the one-time code from the confirmation link. */
export const callbackSchema = z.object({
  code: z.string({ error: "Mangler kode i URL." }).min(1, "Mangler kode i URL.").max(200, "Lenken er ugyldig."),
});

export const PASSWORD_REQUIRED_MESSAGE = "Skriv inn passordet ditt for å bekrefte.";
export const WRONG_PASSWORD_MESSAGE = "Feil passord. Prøv igjen.";

/** Deleting the account and downloading the data export ask for the password again. */
export const passwordConfirmationSchema = z.object({
  password: z
    .string({ error: PASSWORD_REQUIRED_MESSAGE })
    .min(1, PASSWORD_REQUIRED_MESSAGE)
    .max(PASSWORD_MAX_LENGTH, WRONG_PASSWORD_MESSAGE),
});
