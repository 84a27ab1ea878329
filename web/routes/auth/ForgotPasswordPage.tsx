import { MailCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Link } from "../../components/Link";
import { FORGOT_PASSWORD_ANSWER } from "../../../domain/credentials";
import { requestPasswordReset } from "../../api/auth";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/TextField";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/**
 * /auth/glemt-passord: "Glemt passord?" (docs/product.md "Password and e-mail"). The answer is the
 * same whether or not the address has an account. Without JavaScript the page's plain form does the
 * same through the server (decision 126).
 */
export function ForgotPasswordPage() {
  useDocumentTitle("Glemt passord");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = (new FormData(event.currentTarget).get("email") as string | null) ?? "";
    const { forgotPasswordSchema } = await import("../../../domain/schemas/credentials");
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await requestPasswordReset(parsed.data.email);
      setSent(true);
    } catch (err) {
      setError(isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <h1 className="text-center text-2xl font-extrabold tracking-tight text-stone-900">Glemt passord?</h1>
      <div className="mt-6 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
        {sent ? (
          <div role="status" className="flex gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-emerald-900">
            <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <p>{FORGOT_PASSWORD_ANSWER}</p>
          </div>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Glemt passord">
            <p className="text-stone-700">
              Skriv inn e-postadressen du bruker hos Lekebytte, så sender vi deg en lenke for å lage nytt passord.
            </p>
            {error ? (
              <p role="alert" className="mt-3 rounded-xl border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800">
                {error}
              </p>
            ) : null}
            <fieldset disabled={busy} aria-busy={busy} className="m-0 mt-4 min-w-0 space-y-4 border-0 p-0">
              <TextField label="E-post" type="email" inputMode="email" autoComplete="email" name="email" />
              <Button type="submit" className="w-full">
                {busy ? "Sender..." : "Send lenke"}
              </Button>
            </fieldset>
          </form>
        )}
        <p className="mt-4 border-t border-stone-200 pt-4 text-sm">
          <Link to="/auth" className="font-medium text-brand-800 underline underline-offset-2">
            Tilbake til innlogging
          </Link>
        </p>
      </div>
    </div>
  );
}
