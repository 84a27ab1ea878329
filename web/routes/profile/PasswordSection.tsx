import { useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { changePasswordSchema } from "../../../domain/schemas/credentials";
import { accountKeys, changePassword } from "../../api/account";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { NewPasswordFields } from "../../components/NewPasswordFields";
import { TextField } from "../../components/ui/TextField";
import { fieldErrors } from "../../lib/fieldErrors";
import { FormButtons } from "./FormButtons";
import { toastError, toastSuccess } from "../../lib/toast";

type Field = "current_password" | "password" | "password_confirm";
const FIELDS: readonly Field[] = ["current_password", "password", "password_confirm"];

/**
 * "Endre passord" (docs/product.md "Profile"): the current password and the new one twice. Saving
 * signs out every other device (this one stays) and mails "Passordet ditt er endret".
 */
export function PasswordSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const close = () => {
    setOpen(false);
    setErrors({});
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = changePasswordSchema.safeParse(Object.fromEntries(FIELDS.map((f) => [f, data.get(f) ?? ""])));
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await changePassword(parsed.data);
      toastSuccess("Passordet er endret", "Du er logget ut på alle andre enheter.");
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
      close();
    } catch (err) {
      if (isApiError(err) && err.fields) setErrors(err.fields as Partial<Record<Field, string>>);
      else if (isApiError(err) && err.code === "RATE_LIMITED") setErrors({ current_password: err.message });
      else toastError("Kunne ikke endre passordet", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Passord
      </h2>
      {open ? (
        <form className="mt-3" noValidate onSubmit={(event) => void submit(event)} aria-label="Endre passord">
          <fieldset disabled={busy} aria-busy={busy} className="m-0 min-w-0 space-y-4 border-0 p-0">
            <TextField
              label="Nåværende passord"
              type="password"
              name="current_password"
              autoComplete="current-password"
              error={errors.current_password}
            />
            <NewPasswordFields errors={errors} />
            <p className="text-sm text-stone-700">Du blir logget ut på alle andre enheter. Her blir du værende logget inn.</p>
            <FormButtons busy={busy} label="Lagre nytt passord" busyLabel="Lagrer..." onCancel={close} />
          </fieldset>
        </form>
      ) : (
        <>
          <p className="mt-1 text-stone-700">Bytt passord hvis du tror noen andre kjenner det.</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => setOpen(true)}>
            <KeyRound aria-hidden="true" className="size-4" />
            Endre passord
          </Button>
        </>
      )}
    </section>
  );
}
