import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { isApiError } from "../api/client";
import { applySignedIn, signIn, type Session } from "../api/session";
import { toastError, toastSuccess } from "../lib/toast";
import { Button } from "./ui/Button";
import { Input } from "./ui/Input";
import { Label } from "./ui/Label";

export interface SignInFormProps {
  /** Runs after the session is stored (the /auth page goes to "/"; the protected wrapper stays). */
  onSignedIn?: (session: Session) => void;
}

/** Sign-in with e-mail and password, with the spec's toasts (part 1 §5 and §8). */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const queryClient = useQueryClient();
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim() || !password) {
      toastError("Feil", "Vennligst fyll ut e-post og passord.");
      return;
    }
    setSubmitting(true);
    try {
      const session = await signIn({ email: email.trim().toLowerCase(), password });
      applySignedIn(queryClient, session);
      toastSuccess("Velkommen tilbake!", "Du er nå logget inn.");
      onSignedIn?.(session);
    } catch (error) {
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
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="w-full space-y-4 text-left" aria-label="Logg inn">
      <div>
        <Label htmlFor={`${id}-email`}>E-post</Label>
        <Input
          id={`${id}-email`}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={submitting}
        />
      </div>
      <div>
        <Label htmlFor={`${id}-password`}>Passord</Label>
        <Input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={submitting}
        />
      </div>
      <Button type="submit" className="w-full" disabled={submitting}>
        {submitting ? "Logger inn..." : "Logg inn"}
      </Button>
    </form>
  );
}
