import { z } from "zod";
import { PASSWORD_MIN_LENGTH, POSTAL_CODE_MAX_LENGTH } from "../limits";

const email = z.string().trim().toLowerCase().pipe(z.email("Vennligst oppgi en gyldig e-postadresse").max(254));

export const signUpSchema = z.object({
  display_name: z.string().trim().min(1, "Vennligst fyll ut alle felt.").max(80),
  email,
  password: z.string().min(PASSWORD_MIN_LENGTH, "Passordet må være minst 6 tegn").max(200),
  postal_code: z
    .string()
    .trim()
    .max(POSTAL_CODE_MAX_LENGTH, "Postnummer kan være maks 4 tegn")
    .optional()
    .transform((v) => (v ? v : null)),
});

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Vennligst fyll ut e-post og passord."),
  password: z.string().min(1, "Vennligst fyll ut e-post og passord.").max(200),
});

export const resendSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Skriv inn e-postadressen din først."),
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
