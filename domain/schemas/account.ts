import { z } from "./zod";
import { PASSWORD_MIN_LENGTH, POSTAL_CODE_MAX_LENGTH } from "../limits";

const MISSING_SIGNUP = "Vennligst fyll ut alle felt.";
const MISSING_SIGNIN = "Vennligst fyll ut e-post og passord.";

const email = z
  .string({ error: MISSING_SIGNUP })
  .trim()
  .toLowerCase()
  .min(1, MISSING_SIGNUP)
  .pipe(z.email("Vennligst oppgi en gyldig e-postadresse").max(254, "Vennligst oppgi en gyldig e-postadresse"));

export const signUpSchema = z.object({
  display_name: z.string({ error: MISSING_SIGNUP }).trim().min(1, MISSING_SIGNUP).max(80, "Navnet kan være maks 80 tegn"),
  email,
  password: z
    .string({ error: MISSING_SIGNUP })
    .min(1, MISSING_SIGNUP)
    .min(PASSWORD_MIN_LENGTH, "Passordet må være minst 6 tegn")
    .max(200, "Passordet kan være maks 200 tegn"),
  postal_code: z
    .string()
    .trim()
    .max(POSTAL_CODE_MAX_LENGTH, "Postnummer kan være maks 4 tegn")
    .optional()
    .transform((v) => (v ? v : null)),
});

export const signInSchema = z.object({
  email: z.string({ error: MISSING_SIGNIN }).trim().toLowerCase().min(1, MISSING_SIGNIN).max(254),
  password: z.string({ error: MISSING_SIGNIN }).min(1, MISSING_SIGNIN).max(200),
});

export const resendSchema = z.object({
  email: z.string({ error: "Skriv inn e-postadressen din først." }).trim().toLowerCase().min(1, "Skriv inn e-postadressen din først.").max(254),
});

export const profileUpdateSchema = z.object({
  display_name: z.string().max(80).nullish().transform((v) => (v?.trim() ? v.trim() : null)),
  postal_code: z
    .string()
    .max(10)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null))
    .refine((v) => v == null || /^\d{4}$/.test(v), "Postnummer må være 4 siffer"),
});
