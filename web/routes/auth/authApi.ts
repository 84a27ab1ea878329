import type { InferRequestType } from "hono/client";
import { api, call, isApiError } from "../../api/client";
import type { Session } from "../../api/auth";
import { resendSchema } from "../../../domain/schemas/account";
import { toastError, toastSuccess } from "../../lib/toast";

export type SignUpBody = InferRequestType<typeof api.auth.signup.$post>["json"];

export function signUp(body: SignUpBody) {
  return call(api.auth.signup.$post({ json: body }));
}

/**
 * "Send bekreftelses-e-post på nytt" ("resend confirmation") for `email`, with the toasts
 * of docs/product.md "Error messages". An empty address never reaches the server.
 */
export async function resendConfirmation(email: string): Promise<void> {
  const parsed = resendSchema.safeParse({ email });
  if (!parsed.success) {
    toastError("Mangler e-post", "Skriv inn e-postadressen din først.");
    return;
  }
  try {
    await call(api.auth.resend.$post({ json: parsed.data }));
    toastSuccess("Ny bekreftelses-epost sendt", "Sjekk innboksen (og spam).");
  } catch (error) {
    if (isApiError(error)) toastError("Kunne ikke sende e-post", error.message);
    else toastError("Kunne ikke sende e-post", "Ukjent feil ved utsending.");
  }
}

// One exchange per code for the life of the page: React's strict mode runs effects twice, and a
// second POST of the same one-time code would fail and show an error over a successful sign-in.
const exchanges = new Map<string, Promise<Session>>();

export function exchangeCodeOnce(code: string): Promise<Session> {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = call(api.auth.callback.$post({ json: { code } }));
    exchanges.set(code, pending);
  }
  return pending;
}
