// Request bodies of password reset, password change, e-mail change and their links (docs/api.md
// "Accounts"). The new password follows the sign-up rule (`newPassword`), typed twice.
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "../limits";
import { CREDENTIAL_MESSAGES } from "../credentials";
import { newPassword, PASSWORD_REQUIRED_MESSAGE, WRONG_PASSWORD_MESSAGE } from "./account";
import { z } from "./zod";

const INVALID_EMAIL = "Vennligst oppgi en gyldig e-postadresse";

function emailField(missing: string) {
  return z
    .string({ error: missing })
    .trim()
    .toLowerCase()
    .min(1, missing)
    .pipe(z.email(INVALID_EMAIL).max(EMAIL_MAX_LENGTH, INVALID_EMAIL));
}

/** The token of a mailed link: 32 random bytes, base64url. Anything else is no link of ours. */
export const linkTokenSchema = z.object({
  token: z.string({ error: "Lenken mangler kode." }).min(1, "Lenken mangler kode.").max(200, "Lenken er ugyldig."),
});

/** "Glemt passord?". */
export const forgotPasswordSchema = z.object({ email: emailField(CREDENTIAL_MESSAGES.emailMissing) });

const newPasswordTwice = {
  password: newPassword(CREDENTIAL_MESSAGES.newPasswordMissing),
  password_confirm: z.string({ error: CREDENTIAL_MESSAGES.passwordsDiffer }).max(PASSWORD_MAX_LENGTH, CREDENTIAL_MESSAGES.passwordsDiffer),
};

function sameTwice<T extends { password: string; password_confirm: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.password !== value.password_confirm) {
    ctx.addIssue({ code: "custom", path: ["password_confirm"], message: CREDENTIAL_MESSAGES.passwordsDiffer });
  }
}

/** "Lag nytt passord" from the mailed link. */
export const resetPasswordSchema = z.object({ ...linkTokenSchema.shape, ...newPasswordTwice }).superRefine(sameTwice);

/** "Endre passord" on the profile: the current password, and the new one twice. */
export const changePasswordSchema = z
  .object({
    current_password: z
      .string({ error: PASSWORD_REQUIRED_MESSAGE })
      .min(1, PASSWORD_REQUIRED_MESSAGE)
      .max(PASSWORD_MAX_LENGTH, WRONG_PASSWORD_MESSAGE),
    ...newPasswordTwice,
  })
  .superRefine(sameTwice);

/** "Endre e-post": the new address and the password again. */
export const changeEmailSchema = z.object({
  email: emailField(CREDENTIAL_MESSAGES.newEmailMissing),
  password: z
    .string({ error: PASSWORD_REQUIRED_MESSAGE })
    .min(1, PASSWORD_REQUIRED_MESSAGE)
    .max(PASSWORD_MAX_LENGTH, WRONG_PASSWORD_MESSAGE),
});
