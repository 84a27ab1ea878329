import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { isApiError } from "../api/client";
import { applySignedIn, signIn, type Session } from "../api/auth";
import { toastError, toastSuccess } from "../lib/toast";
import { Button } from "./ui/Button";
import { TextField } from "./ui/TextField";

type Field = "email" | "password";
/** The fields in the form's order: the first invalid one gets focus. */
const FIELDS: readonly Field[] = ["email", "password"];

// The schema (zod, about 25 KB gzipped) loads on the form's first focus or at the latest on submit,
// not with the page (decision 102). A failed import is tried again on the next use.
let schema: Promise<typeof import("../../domain/schemas/account").signInSchema> | undefined;
const loadSchema = () =>
  (schema ??= import("../../domain/schemas/account").then(
    (m) => m.signInSchema,
    (error: unknown) => {
      schema = undefined;
      throw error;
    },
  ));

export interface SignInFormProps {
  /** Runs after the session is stored (the /auth page goes to "/"; the protected wrapper stays). */
  onSignedIn?: (session: Session) => void;
  /**
   * Offers "Send bekreftelses-e-post på nytt" for the address in the e-mail field (the /auth page);
   * the form stays disabled while it runs.
   */
  onResend?: (email: string) => Promise<void>;
}

/**
 * Sign-in with e-mail and password, with the toasts of docs/product.md "Validation" and "Error
 * messages". A plain form (no form library on the pages that show it, decision 104): the schema
 * checks it on submit, the first invalid field gets focus, and after a submit every change checks
 * it again, so a corrected field stops being marked invalid.
 */
export function SignInForm({ onSignedIn, onResend }: SignInFormProps) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<"signin" | "resend" | null>(null);
  const [invalid, setInvalid] = useState<ReadonlySet<Field>>(() => new Set());
  const form = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);

  const input = (field: Field) => form.current?.elements.namedItem(field) as HTMLInputElement | null;
  const check = async () => {
    const parsed = (await loadSchema()).safeParse({ email: input("email")?.value ?? "", password: input("password")?.value ?? "" });
    setInvalid(new Set(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0] as Field)));
    return parsed;
  };

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
          toastError("Feil ved innlogging", error.message, { error });
        }
      } else {
        toastError("Feil", "Noe gikk galt. Prøv igjen.");
      }
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    let parsed: Awaited<ReturnType<typeof check>>;
    try {
      parsed = await check();
    } catch {
      toastError("Feil", "Noe gikk galt. Prøv igjen.");
      return;
    }
    if (parsed.success) return onValid(parsed.data);
    const { issues } = parsed.error;
    const first = FIELDS.find((field) => issues.some((issue) => issue.path[0] === field));
    if (first) input(first)?.focus();
    toastError("Feil", "Vennligst fyll ut e-post og passord.");
  };

  const resend = async () => {
    if (!onResend) return;
    const email = input("email")?.value ?? "";
    setBusy("resend");
    try {
      await onResend(email);
    } finally {
      setBusy(null);
    }
  };

  return (
    <form
      ref={form}
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadSchema().catch(() => undefined)}
      onChange={() => {
        if (submitted.current) void check().catch(() => undefined);
      }}
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
          name="email"
          aria-invalid={invalid.has("email") ? true : undefined}
        />
        <TextField
          label="Passord"
          type="password"
          autoComplete="current-password"
          name="password"
          aria-invalid={invalid.has("password") ? true : undefined}
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
