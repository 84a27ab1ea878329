import { Mail } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { useLocation } from "react-router-dom";
import { isApiError } from "../../api/client";
import { subscribeNewsletter } from "../../api/newsletter";
import { Button } from "../../components/ui/Button";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { toastError, toastSuccess } from "../../lib/toast";
import { useValueTypedEarly } from "../../lib/useValueTypedEarly";

// The schema (and zod with it) loads when someone starts typing, not with the home page.
const loadSchema = () => import("../../../domain/schemas/content").then((m) => m.newsletterSchema);

export interface NewsletterBlockProps {
  /** Stored with the subscription so sign-ups can be compared between placements. */
  variant?: string;
}

/** Newsletter sign-up (docs/product.md "Validation", "Error messages"): e-mail required, name optional. */
export function NewsletterBlock({ variant = "home" }: NewsletterBlockProps) {
  const id = useId();
  const { pathname } = useLocation();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const emailField = useRef<HTMLInputElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useValueTypedEarly(emailField, email, setEmail);
  useValueTypedEarly(nameField, name, setName);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const schema = await loadSchema();
      const parsed = schema.safeParse({ email, name, signup_page: pathname, variant });
      if (!parsed.success) {
        const emailIssue = parsed.error.issues.find((issue) => issue.path[0] === "email");
        if (emailIssue) {
          const missing = email.trim() === "";
          setEmailError(missing ? "Manglende e-post" : "Vennligst oppgi en gyldig e-postadresse");
          if (missing) toastError("Manglende e-post");
          else toastError("Ugyldig e-post", "Vennligst oppgi en gyldig e-postadresse");
        } else {
          toastError("Noe gikk galt", "Kunne ikke melde deg på nyhetsbrevet. Prøv igjen senere.");
        }
        return;
      }
      setEmailError(null);
      await subscribeNewsletter(parsed.data);
      toastSuccess("Takk for påmeldingen!", "Du er nå påmeldt vårt nyhetsbrev");
      setEmail("");
      setName("");
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        toastError("Allerede påmeldt", "Denne e-postadressen er allerede registrert for nyhetsbrevet");
      } else {
        toastError("Noe gikk galt", "Kunne ikke melde deg på nyhetsbrevet. Prøv igjen senere.", { error });
      }
    } finally {
      setSubmitting(false);
    }
  }

  const headingId = `${id}-heading`;
  const errorId = `${id}-email-error`;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-brand-200 bg-brand-50 p-5 sm:p-8">
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="hidden size-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white sm:flex"
        >
          <Mail className="size-5" />
        </span>
        <div>
          <h2 id={headingId} className="text-xl font-bold text-stone-900">
            Meld deg på nyhetsbrevet
          </h2>
          <p className="mt-1 text-stone-700">Få beskjed om nye leker, gode tips og nyheter fra Lekebytte.</p>
        </div>
      </div>
      <form onSubmit={handleSubmit} noValidate className="mt-5 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        <div>
          <Label htmlFor={`${id}-email`}>E-post</Label>
          <Input
            ref={emailField}
            id={`${id}-email`}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="navn@eksempel.no"
            value={email}
            onFocus={() => void loadSchema().catch(() => undefined)}
            onChange={(e) => {
              setEmail(e.target.value);
              if (emailError) setEmailError(null);
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? errorId : undefined}
            disabled={submitting}
          />
          {emailError ? (
            <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
              {emailError}
            </p>
          ) : null}
        </div>
        <div>
          <Label htmlFor={`${id}-name`}>Navn (valgfritt)</Label>
          <Input
            ref={nameField}
            id={`${id}-name`}
            name="name"
            autoComplete="name"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={submitting}
          />
        </div>
        {/* sm:mt-6 lines the button up with the inputs below their labels. */}
        <Button type="submit" disabled={submitting} className="sm:mt-6 sm:min-w-36">
          {submitting ? "Melder på..." : "Meld meg på"}
        </Button>
      </form>
    </section>
  );
}
