// Request bodies and queries of the moderation endpoints (docs/decisions/050-moderation.md). The
// report dialog's schema is `reportSchema` in ./content.ts.
import { z } from "./zod";
import { EMAIL_MAX_LENGTH } from "../limits";
import {
  MODERATION_ACTIONS,
  MODERATION_NOTES_MAX_LENGTH,
  MODERATION_PAGE_MAX,
  MODERATION_PAGE_SIZE,
  REPORT_STATUSES,
  SUSPENSION_MAX_DAYS,
} from "../moderation";
import { ROLES } from "../roles";
import { optionalMultiLineText } from "./user-text";

const notes = optionalMultiLineText("Notatet må være tekst")
  .pipe(z.string().trim().max(MODERATION_NOTES_MAX_LENGTH, `Notatet kan være maks ${MODERATION_NOTES_MAX_LENGTH} tegn`))
  .transform((v) => (v ? v : null));

/** "Moderer rapport": an action must be chosen ("Velg en handling", docs/product.md "Validation"); notes optional. */
export const moderationActionSchema = z.object({
  action: z.enum(MODERATION_ACTIONS, { error: "Velg en handling" }),
  notes,
  /** Only for hide/delete on a user or profile: the suspension's length (default by action). */
  suspension_days: z.coerce
    .number({ error: "Velg antall dager" })
    .int("Velg et helt antall dager")
    .min(1, "Velg minst 1 dag")
    .max(SUSPENSION_MAX_DAYS, `Maks ${SUSPENSION_MAX_DAYS} dager`)
    .optional(),
});

/** Dismissing a report ("Avvis rapport") or lifting a hide/suspension: notes only. */
export const moderationNotesSchema = z.object({ notes });

/** GET /api/moderation/reports?status=&limit=&offset= */
export const moderationQuerySchema = z.object({
  status: z.enum(REPORT_STATUSES, { error: "Ukjent status" }).default("pending"),
  limit: z.coerce.number({ error: "Ugyldig antall" }).int().min(1).max(MODERATION_PAGE_MAX).default(MODERATION_PAGE_SIZE),
  offset: z.coerce.number({ error: "Ugyldig side" }).int().min(0).max(100_000).default(0),
});

/** PUT /api/moderation/roles (admins only). */
export const roleChangeSchema = z.object({
  email: z
    .string({ error: "Skriv inn en e-postadresse" })
    .trim()
    .toLowerCase()
    .min(1, "Skriv inn en e-postadresse")
    .pipe(z.email("Vennligst oppgi en gyldig e-postadresse").max(EMAIL_MAX_LENGTH, "Vennligst oppgi en gyldig e-postadresse")),
  role: z.enum(ROLES, { error: "Velg en rolle" }),
});
