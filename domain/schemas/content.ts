import { z } from "./zod";
import { REPORT_DESCRIPTION_MAX_LENGTH, REPORT_PRIORITY_KEYS, REPORT_TARGET_TYPES, type ReportPriority } from "../moderation";
import { multiLineText, optionalMultiLineText, optionalSingleLineText, singleLineText } from "./user-text";

/** "text, at sign, text, dot, text" (docs/product.md "Validation"). */
export const NEWSLETTER_EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const newsletterSchema = z.object({
  email: z
    .string({ error: "Manglende e-post" })
    .trim()
    .toLowerCase()
    .min(1, "Manglende e-post")
    .max(254, "Vennligst oppgi en gyldig e-postadresse")
    .regex(NEWSLETTER_EMAIL_RE, "Vennligst oppgi en gyldig e-postadresse"),
  name: optionalSingleLineText()
    .pipe(z.string().trim().max(100))
    .transform((v) => (v ? v : null)),
  signup_page: z.string().max(200).optional(),
  variant: z.string().max(50).optional(),
});

/** The contact form: an empty field says "Fyll ut …"; only an e-mail address that is there but wrong says "gyldig". */
export const contactSchema = z.object({
  name: singleLineText().pipe(z.string().trim().min(1, "Fyll ut navn").max(100)),
  email: z.string().trim().toLowerCase().min(1, "Fyll ut e-post").pipe(z.email("Vennligst oppgi en gyldig e-postadresse").max(254)),
  subject: singleLineText().pipe(z.string().trim().min(1, "Fyll ut emne").max(200)),
  message: multiLineText().pipe(z.string().trim().min(1, "Fyll ut melding").max(5000)),
});

export const REPORT_REASONS = [
  "Upassende innhold",
  "Spam/reklame",
  "Falsk annonse",
  "Villedende informasjon",
  "Trakassering",
  "Hatefulle ytringer",
  "Ulovlig innhold",
  "Opphavsrett-brudd",
  "Personlig informasjon",
  "Annet",
] as const;

export const REPORT_PRIORITIES = [
  { key: "low", label: "Lav" },
  { key: "normal", label: "Normal" },
  { key: "high", label: "Høy" },
  { key: "urgent", label: "Haster" },
] as const satisfies readonly { key: ReportPriority; label: string }[];

/**
 * POST /api/reports (the report dialog, docs/product.md "Validation"): a reason from the list (stored as its
 * Norwegian label), optional extra info, priority low/normal (default)/high/urgent. Unknown keys
 * (reporter_id, status, …) are stripped.
 */
export const reportSchema = z.object({
  target_type: z.enum(REPORT_TARGET_TYPES, { error: "Ukjent type innhold" }),
  target_id: z.uuid({ error: "Fant ikke det du vil rapportere" }),
  reason: z.enum(REPORT_REASONS, { error: "Velg en årsak" }),
  description: optionalMultiLineText("Tilleggsinformasjonen må være tekst")
    .pipe(z.string().trim().max(REPORT_DESCRIPTION_MAX_LENGTH, `Tilleggsinformasjonen kan være maks ${REPORT_DESCRIPTION_MAX_LENGTH} tegn`))
    .transform((v) => (v ? v : null)),
  priority: z.enum(REPORT_PRIORITY_KEYS, { error: "Velg en prioritet" }).default("normal"),
});

export type ReportInput = z.input<typeof reportSchema>;
export type Report = z.output<typeof reportSchema>;

/** What the Worker answers when the address is already signed up (409). */
export const NEWSLETTER_REFUSALS = {
  alreadySubscribed: "Denne e-postadressen er allerede registrert for nyhetsbrevet",
} as const;
