import { MailCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, type FieldErrors, type FieldError } from "react-hook-form";
import type { z } from "zod";
import { POSTAL_CODE_MAX_LENGTH } from "../../../domain/limits";
import type { signUpSchema } from "../../../domain/schemas/account";
import { signUp } from "../../api/auth";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/TextField";
import { lazyResolver } from "../../lib/lazyResolver";
import { toastError, toastSuccess } from "../../lib/toast";
import { resendConfirmation } from "./resendConfirmation";

const signUpResolver = lazyResolver(() => import("../../components/accountResolvers").then((m) => m.signUpResolver));

type SignUpInput = z.input<typeof signUpSchema>;
type SignUpValues = z.output<typeof signUpSchema>;

/** The schema's message for a required field left empty (docs/product.md "Validation"). */
const MISSING_FIELDS = "Vennligst fyll ut alle felt.";
const FIELD_ORDER = ["display_name", "email", "password", "postal_code"] as const;

/** Under the field: a short note for an empty required field, else the schema's own message. */
function fieldError(error: FieldError | undefined): string | undefined {
  if (!error?.message) return undefined;
  return error.message === MISSING_FIELDS ? "Fyll ut dette feltet." : error.message;
}

export function SignUpForm() {
  // Opening the "Registrer" tab is the sign of use: its schema loads now, not on the first submit.
  useEffect(() => signUpResolver.preload(), []);
  const [busy, setBusy] = useState<"signup" | "resend" | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    resetField,
    setError,
    formState: { errors },
  } = useForm<SignUpInput, unknown, SignUpValues>({
    resolver: signUpResolver,
    defaultValues: { display_name: "", email: "", password: "", postal_code: "" },
  });

  const onValid = async (values: SignUpValues) => {
    setBusy("signup");
    try {
      await signUp({
        display_name: values.display_name,
        email: values.email,
        password: values.password,
        ...(values.postal_code ? { postal_code: values.postal_code } : {}),
      });
      toastSuccess("Registrering vellykket!", "Sjekk e-posten din for bekreftelseslink.");
      setSentTo(values.email);
      resetField("password");
    } catch (error) {
      // docs/product.md "Error messages" matched the provider's "already registered" message; our API says EMAIL_TAKEN.
      if (isApiError(error) && error.code === "EMAIL_TAKEN") {
        toastError("Bruker eksisterer allerede", "Denne e-postadressen er allerede registrert. Prøv å logge inn i stedet.");
      } else if (isApiError(error) && error.code !== "NETWORK") {
        for (const name of FIELD_ORDER) {
          const message = error.fields?.[name];
          if (message) setError(name, { type: "server", message });
        }
        toastError("Feil ved registrering", error.message, { error });
      } else {
        toastError("Feil", "Noe gikk galt. Prøv igjen.");
      }
    } finally {
      setBusy(null);
    }
  };

  const onInvalid = (invalid: FieldErrors<SignUpInput>) => {
    const messages = FIELD_ORDER.map((name) => invalid[name]?.message).filter((m): m is string => !!m);
    if (messages.includes(MISSING_FIELDS)) toastError("Manglende informasjon", MISSING_FIELDS);
    else if (messages[0]) toastError("Feil ved registrering", messages[0]);
  };

  const resend = async () => {
    setBusy("resend");
    try {
      await resendConfirmation(getValues("email"));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="w-full text-left" aria-label="Registrer">
      {sentTo ? (
        <div role="status" className="mb-4 flex gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            Vi har sendt en bekreftelseslenke til <strong className="break-all">{sentTo}</strong>. Åpne lenken i e-posten for å aktivere
            kontoen, og logg deretter inn.
          </p>
        </div>
      ) : null}
      <fieldset disabled={busy !== null} aria-busy={busy !== null} className="m-0 min-w-0 space-y-4 border-0 p-0">
        <TextField label="Navn" autoComplete="name" error={fieldError(errors.display_name)} {...register("display_name")} />
        <TextField
          label="E-post"
          type="email"
          inputMode="email"
          autoComplete="email"
          error={fieldError(errors.email)}
          {...register("email")}
        />
        <TextField
          label="Passord"
          type="password"
          autoComplete="new-password"
          placeholder="Minimum 6 tegn"
          error={fieldError(errors.password)}
          {...register("password")}
        />
        <TextField
          label="Postnummer (valgfritt)"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={POSTAL_CODE_MAX_LENGTH}
          className="max-w-40"
          error={fieldError(errors.postal_code)}
          {...register("postal_code")}
        />
        <Button type="submit" className="w-full">
          {busy === "signup" ? "Registrerer..." : "Registrer"}
        </Button>
        <div className="border-t border-stone-200 pt-4 text-sm text-stone-700">
          <p>Har du ikke fått e-posten for å bekrefte kontoen din?</p>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="mt-1 -ml-3 text-brand-800 underline underline-offset-2"
            onClick={() => void resend()}
          >
            {busy === "resend" ? "Sender..." : "Send bekreftelses-e-post på nytt"}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
