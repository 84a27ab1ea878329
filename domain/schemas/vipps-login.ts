// The request bodies of "Logg inn med Vipps" (docs/api.md "Vipps Login").
import { safeReturnPath } from "../return-path";
import { VIPPS_LOGIN_REFUSALS } from "../vipps-login";
import { z } from "./zod";

const STATE_MESSAGE = VIPPS_LOGIN_REFUSALS.expired;

/** POST /api/auth/vipps/start: where to go after signing in (a path on this site only). */
export const vippsStartSchema = z.object({
  next: z
    .string()
    .max(500)
    .nullish()
    .transform((v) => safeReturnPath(v ?? null)),
});

/** POST /api/auth/vipps/callback: what Vipps put in the redirect URI's query. */
export const vippsCallbackSchema = z
  .object({
    state: z.string({ error: STATE_MESSAGE }).min(8, STATE_MESSAGE).max(200, STATE_MESSAGE),
    code: z.string().min(1).max(1000).optional(),
    error: z.string().max(100).optional(),
    error_description: z.string().max(500).optional(),
  })
  .refine((v) => v.code !== undefined || v.error !== undefined, { message: STATE_MESSAGE, path: ["code"] });

/** POST /api/auth/vipps/link/confirm: the code of the mailed link. */
export const vippsLinkCodeSchema = z.object({
  code: z
    .string({ error: VIPPS_LOGIN_REFUSALS.linkExpired })
    .min(1, VIPPS_LOGIN_REFUSALS.linkExpired)
    .max(200, VIPPS_LOGIN_REFUSALS.linkExpired),
});
