// Sign-in and "Glemt passord?" as plain HTML forms (docs/decisions/126-sign-in-without-javascript.md):
// /auth and /auth/glemt-passord are rendered at the edge with real forms that post here, so they
// work before the app's code has run and without JavaScript at all. The answer is a redirect (303):
// on to the page the visitor came from with the session's cookies, or back to the form with a code
// the page turns into its Norwegian text. Mounted before the JSON-only rule; the same-origin check
// has run. The sign-in form lives under /api/auth/signin so the browser sends its device cookie
// (decision 084).
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { FormErrorCode } from "../../../domain/auth";
import type { ErrorCode } from "../../../domain/errors";
import { safeReturnPath } from "../../../domain/return-path";
import { signInSchema } from "../../../domain/schemas/account";
import { forgotPasswordSchema } from "../../../domain/schemas/credentials";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { forgotPassword, setSession, signInWithPassword } from "./respond";

/** A form of two short fields and a path: anything bigger is no form of ours. */
const FORM_LIMIT = 8 * 1024;

const FORM_CODES: Partial<Record<ErrorCode, FormErrorCode>> = {
  VALIDATION: "mangler",
  INVALID_CREDENTIALS: "innlogging",
  EMAIL_NOT_CONFIRMED: "ikke-bekreftet",
  RATE_LIMITED: "for-mange",
};

/** Only a form post of text fields; a field given twice counts once (the first). */
async function formFields(c: Context<AppEnv>): Promise<Record<string, string>> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header("Content-Type") ?? "")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(await c.req.text())) fields[name] ??= value;
  return fields;
}

/** The code for a refusal; an unexpected error is logged and shown as "Noe gikk galt". */
function codeOf(err: unknown): FormErrorCode {
  if (err instanceof AppError) return FORM_CODES[err.code] ?? "ukjent";
  console.error("Form sign-in failed", err);
  return "ukjent";
}

function back(c: Context<AppEnv>, path: string, code: FormErrorCode, next: string | null) {
  const query = new URLSearchParams({ feil: code, ...(next ? { next } : {}) });
  // Refusals carry no cookies and are never stored.
  c.header("Cache-Control", "no-store");
  return c.redirect(`${path}?${query}`, 303);
}

const formLimit = bodyLimit({
  maxSize: FORM_LIMIT,
  onError: () => {
    throw new AppError("PAYLOAD_TOO_LARGE");
  },
});

export const authFormRoutes = new Hono<AppEnv>()
  .post("/signin/form", formLimit, async (c) => {
    const fields = await formFields(c);
    const next = safeReturnPath(fields.next);
    const parsed = signInSchema.safeParse(fields);
    if (!parsed.success) return back(c, "/auth", "mangler", next);
    try {
      const session = await signInWithPassword(c, parsed.data.email, parsed.data.password);
      await setSession(c, session, { rememberDevice: true });
    } catch (err) {
      return back(c, "/auth", codeOf(err), next);
    }
    return c.redirect(next ?? "/", 303);
  })
  .post("/password/forgot/form", formLimit, async (c) => {
    const fields = await formFields(c);
    const parsed = forgotPasswordSchema.safeParse(fields);
    if (!parsed.success) return back(c, "/auth/glemt-passord", fields.email?.trim() ? "ugyldig-epost" : "mangler-epost", null);
    try {
      await forgotPassword(c, parsed.data.email);
    } catch (err) {
      return back(c, "/auth/glemt-passord", codeOf(err), null);
    }
    c.header("Cache-Control", "no-store");
    return c.redirect("/auth/glemt-passord?sendt=1", 303);
  });
