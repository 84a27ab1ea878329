import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Mail, MailCheck } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { changeEmailSchema } from "../../../domain/schemas/credentials";
import { accountKeys, changeEmail, profileQuery } from "../../api/account";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/TextField";
import { fieldErrors } from "../../lib/fieldErrors";
import { toastError } from "../../lib/toast";
import { FormButtons } from "./FormButtons";

type Field = "email" | "password";

/**
 * "Endre e-post" (docs/product.md "Profile"): the new address and the password again. A
 * confirmation link goes to the new address, and the address changes only when it is opened; the
 * old address is told, with a link that stops it.
 */
export function EmailSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const { data: profile } = useQuery(profileQuery());
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = changeEmailSchema.safeParse({ email: data.get("email") ?? "", password: data.get("password") ?? "" });
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await changeEmail(parsed.data.email, parsed.data.password);
      setSent(answer.message);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: accountKeys.profile });
    } catch (err) {
      if (isApiError(err) && err.fields) setErrors(err.fields as Partial<Record<Field, string>>);
      else if (isApiError(err) && (err.code === "EMAIL_TAKEN" || err.code === "RATE_LIMITED")) setErrors({ email: err.message });
      else toastError("Kunne ikke endre e-postadressen", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
    } finally {
      setBusy(false);
    }
  };

  const pending = profile?.pending_email ?? null;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        E-postadresse
      </h2>
      <p className="mt-1 break-words text-stone-700">
        Du logger inn med <strong className="text-stone-900">{profile?.email ?? "…"}</strong>.
      </p>
      {sent || pending ? (
        <div role="status" className="mt-3 flex gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p className="break-words">
            {sent ?? ""}{" "}
            {pending ? (
              <>
                Venter på bekreftelse fra <strong>{pending}</strong>.
              </>
            ) : null}
          </p>
        </div>
      ) : null}
      {open ? (
        <form className="mt-3" noValidate onSubmit={(event) => void submit(event)} aria-label="Endre e-post">
          <fieldset disabled={busy} aria-busy={busy} className="m-0 min-w-0 space-y-4 border-0 p-0">
            <TextField label="Ny e-postadresse" type="email" inputMode="email" autoComplete="email" name="email" error={errors.email} />
            <TextField label="Passord" type="password" name="password" autoComplete="current-password" error={errors.password} />
            <FormButtons
              busy={busy}
              label="Send bekreftelseslenke"
              busyLabel="Sender..."
              onCancel={() => {
                setOpen(false);
                setErrors({});
              }}
            />
          </fieldset>
        </form>
      ) : (
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => setOpen(true)}>
          <Mail aria-hidden="true" className="size-4" />
          Endre e-post
        </Button>
      )}
    </section>
  );
}
