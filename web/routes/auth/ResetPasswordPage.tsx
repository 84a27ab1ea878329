import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { resetPasswordSchema } from "../../../domain/schemas/credentials";
import { applySignedIn, checkPasswordResetLink, resetPassword } from "../../api/auth";
import { isApiError } from "../../api/client";
import { Button, buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { NewPasswordFields } from "../../components/NewPasswordFields";
import { fieldErrors } from "../../lib/fieldErrors";
import { toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

type Field = "password" | "password_confirm";

/** A link that does not work (used, expired, replaced, unknown): says why and offers a new one. */
function DeadLink({ reason }: { reason: string }) {
  return (
    <div className="text-center">
      <CircleAlert aria-hidden="true" className="mx-auto size-10 text-red-700" />
      <h1 className="mt-3 text-2xl font-extrabold text-stone-900">Lenken virker ikke</h1>
      <p role="alert" className="mt-2 text-stone-700">
        {reason}
      </p>
      <Link to="/auth/glemt-passord" className={buttonClasses("primary", "md", "mt-6")}>
        Be om en ny lenke
      </Link>
    </div>
  );
}

/**
 * /auth/nytt-passord?token=…: "Lag nytt passord" from the mailed link (docs/product.md "Password
 * and e-mail"). Opening it asks whether the link still works; saving sets the password by the
 * sign-up rules (typed twice), signs out every other session and signs in this browser.
 */
export function ResetPasswordPage() {
  useDocumentTitle("Lag nytt passord");
  const token = useSearchParams()[0].get("token") ?? "";
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [deadReason, setDeadReason] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const link = useQuery({
    queryKey: ["password-reset-link", token],
    queryFn: () => checkPasswordResetLink(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = resetPasswordSchema.safeParse({ token, password: data.get("password"), password_confirm: data.get("password_confirm") });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const session = await resetPassword(parsed.data);
      applySignedIn(queryClient, session);
      toastSuccess("Passordet er endret", "Du er logget inn, og alle andre innlogginger er logget ut.");
      navigate("/min-profil", { replace: true });
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && err.code === "INVALID_CODE") setDeadReason(err.message);
      else if (isApiError(err) && err.fields) setErrors(err.fields as Partial<Record<Field, string>>);
      else setErrors({ password: isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen." });
    }
  };

  const dead = deadReason ?? (token === "" ? "Lenken mangler kode." : link.isError ? link.error.message : null);
  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <div className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        {dead ? (
          <DeadLink reason={dead} />
        ) : link.isPending ? (
          <>
            <h1 className="sr-only">Lag nytt passord</h1>
            <Spinner label="Sjekker lenken..." className="py-6" />
          </>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Lag nytt passord">
            <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">Lag nytt passord</h1>
            <p className="mt-2 text-stone-700">Når du lagrer, blir du logget ut på alle andre enheter og logget inn her.</p>
            <fieldset disabled={busy} aria-busy={busy} className="m-0 mt-4 min-w-0 space-y-4 border-0 p-0">
              <NewPasswordFields errors={errors} />
              <Button type="submit" className="w-full">
                {busy ? "Lagrer..." : "Lagre nytt passord"}
              </Button>
            </fieldset>
          </form>
        )}
      </div>
    </div>
  );
}
