import { resendConfirmationEmail } from "../../api/auth";
import { isApiError } from "../../api/client";
import { toastError, toastSuccess } from "../../lib/toast";

/**
 * "Send bekreftelses-e-post på nytt" ("resend confirmation") for `email`, with the toasts
 * of docs/product.md "Error messages". An empty address never reaches the server.
 */
export async function resendConfirmation(email: string): Promise<void> {
  // The schema (zod) loads on the first press, not with /auth (decision 102).
  const { resendSchema } = await import("../../../domain/schemas/account");
  const parsed = resendSchema.safeParse({ email });
  if (!parsed.success) {
    toastError("Mangler e-post", "Skriv inn e-postadressen din først.");
    return;
  }
  try {
    await resendConfirmationEmail(parsed.data);
    toastSuccess("Ny bekreftelses-epost sendt", "Sjekk innboksen (og spam).");
  } catch (error) {
    if (isApiError(error)) toastError("Kunne ikke sende e-post", error.message, { error });
    else toastError("Kunne ikke sende e-post", "Ukjent feil ved utsending.");
  }
}
