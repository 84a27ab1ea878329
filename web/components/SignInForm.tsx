import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { signInSchema } from "../../domain/schemas/account";
import { isApiError } from "../api/client";
import { applySignedIn, signIn, type Session } from "../api/auth";
import { lazyResolver } from "../lib/lazyResolver";
import { toastError, toastSuccess } from "../lib/toast";
import { Button } from "./ui/Button";
import { TextField } from "./ui/TextField";

const signInResolver = lazyResolver(() => import("./accountResolvers").then((m) => m.signInResolver));

export interface SignInFormProps {
  /** Runs after the session is stored (the /auth page goes to "/"; the protected wrapper stays). */
  onSignedIn?: (session: Session) => void;
  /**
   * Offers "Send bekreftelses-e-post på nytt" for the address in the e-mail field (the /auth page);
   * the form stays disabled while it runs.
   */
  onResend?: (email: string) => Promise<void>;
}

/** Sign-in with e-mail and password, with the toasts of docs/product.md "Validation" and "Error messages". */
export function SignInForm({ onSignedIn, onResend }: SignInFormProps) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<"signin" | "resend" | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<z.input<typeof signInSchema>, unknown, z.output<typeof signInSchema>>({
    resolver: signInResolver,
    defaultValues: { email: "", password: "" },
  });

  const onValid = async (values: { email: string; password: string }) => {
    setBusy("signin");
    try {
      const session = await signIn(values);
      applySignedIn(queryClient, session);
      toastSuccess("Velkommen tilbake!", "Du er nå logget inn.");
      onSignedIn?.(session);
    } catch (error) {
      // docs/product.md "Error messages" matched the provider's "Invalid login credentials"; our API says INVALID_CREDENTIALS.
      if (isApiError(error)) {
        if (error.code === "INVALID_CREDENTIALS" || error.status === 401) {
          toastError("Feil innloggingsopplysninger", "E-post eller passord er feil. Prøv igjen.");
        } else {
          toastError("Feil ved innlogging", error.message);
        }
      } else {
        toastError("Feil", "Noe gikk galt. Prøv igjen.");
      }
    } finally {
      setBusy(null);
    }
  };

  const onInvalid = () => toastError("Feil", "Vennligst fyll ut e-post og passord.");

  const resend = async () => {
    if (!onResend) return;
    setBusy("resend");
    try {
      await onResend(getValues("email"));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form
      onSubmit={handleSubmit(onValid, onInvalid)}
      onFocus={signInResolver.preload}
      noValidate
      className="w-full text-left"
      aria-label="Logg inn"
    >
      {/* A disabled fieldset disables every input and button in it while a request runs. */}
      <fieldset disabled={busy !== null} aria-busy={busy !== null} className="m-0 min-w-0 space-y-4 border-0 p-0">
        <TextField
          label="E-post"
          type="email"
          inputMode="email"
          autoComplete="email"
          aria-invalid={errors.email ? true : undefined}
          {...register("email")}
        />
        <TextField
          label="Passord"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          {...register("password")}
        />
        <Button type="submit" className="w-full">
          {busy === "signin" ? "Logger inn..." : "Logg inn"}
        </Button>
        {onResend ? (
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
        ) : null}
      </fieldset>
    </form>
  );
}
