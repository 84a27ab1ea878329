import { useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { CALLBACK_REDIRECT_MS } from "../../../domain/limits";
import { applySignedIn, authKeys, exchangeCodeOnce, sessionQuery } from "../../api/auth";
import { isApiError } from "../../api/client";
import { buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

type CallbackState = { status: "loading" } | { status: "ok" } | { status: "error"; reason: string };

/** The reason shown after "Kunne ikke logge inn: " when the exchange fails (docs/product.md "Error messages"). */
function exchangeFailureReason(error: unknown): string {
  return isApiError(error) && error.message ? error.message : "Kunne ikke logge inn.";
}

/**
 * /auth/callback: finishes sign-in from the confirmation e-mail's link. Exchanges the one-time
 * `code` for a session, then goes on to /min-profil (replacing this entry) after 400 ms. A failed
 * exchange while already signed in (the link opened again) goes straight on to /min-profil.
 */
const TITLES: Record<CallbackState["status"], string> = {
  loading: "Logger inn",
  ok: "Du er logget inn",
  error: "Innloggingen mislyktes",
};

export function CallbackPage() {
  const [params] = useSearchParams();
  const errorDescription = params.get("error_description");
  const code = params.get("code");
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  // The URL alone decides the first two error states; only an exchange starts in "loading".
  const [state, setState] = useState<CallbackState>(() => {
    if (errorDescription) return { status: "error", reason: errorDescription };
    if (!code) return { status: "error", reason: "Mangler kode i URL." };
    return { status: "loading" };
  });
  // The tab says what happened, not "Logger inn" after the link has failed.
  useDocumentTitle(TITLES[state.status]);

  useEffect(() => {
    if (errorDescription || !code) return;
    let active = true;
    exchangeCodeOnce(code).then(
      async (session) => {
        // The page load's own session check (signed out, as the cookies were not there yet) may
        // still be running; its late answer must not overwrite the new session.
        await queryClient.cancelQueries({ queryKey: authKeys.session });
        applySignedIn(queryClient, session);
        if (active) setState({ status: "ok" });
      },
      async (error: unknown) => {
        // A link opened again (already used) while this browser is signed in: the sign-in it was
        // for has happened, so the user goes on to the profile instead of reading an error.
        const session = await queryClient.fetchQuery(sessionQuery()).catch(() => null);
        if (!active) return;
        if (session) navigate("/min-profil", { replace: true });
        else setState({ status: "error", reason: exchangeFailureReason(error) });
      },
    );
    return () => {
      active = false;
    };
  }, [code, errorDescription, queryClient, navigate]);

  useEffect(() => {
    if (state.status !== "ok") return;
    const timer = window.setTimeout(() => navigate("/min-profil", { replace: true }), CALLBACK_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [state.status, navigate]);

  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      {state.status === "loading" ? (
        <>
          <h1 className="sr-only">Logger inn</h1>
          <Spinner label="Logger inn..." className="py-8" />
        </>
      ) : state.status === "ok" ? (
        <>
          <div aria-hidden="true" className="mb-4 flex size-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
            <CircleCheck className="size-8" />
          </div>
          <h1 className="text-2xl font-bold text-stone-900">Du er logget inn</h1>
          <p role="status" className="mt-3 text-stone-700">
            E-postadressen din er bekreftet. Sender deg videre til profilen din...
          </p>
        </>
      ) : (
        <SignInFailed title="Innloggingen mislyktes" reason={`Kunne ikke logge inn: ${state.reason}`}>
          <p className="mt-3 text-stone-700">
            Tips: Lenken kan ha utløpt eller allerede vært brukt. Logg inn på nytt, eller be om en ny bekreftelses-e-post fra
            innloggingssiden.
          </p>
        </SignInFailed>
      )}
    </section>
  );
}

/** A sign-in that could not finish (the e-mail link's, Vipps' at /auth/vipps): what happened, and the way back to /auth. */
export function SignInFailed({ title, reason, children }: { title: string; reason: ReactNode; children?: ReactNode }) {
  return (
    <>
      <div aria-hidden="true" className="mb-4 flex size-16 items-center justify-center rounded-full bg-red-50 text-red-700">
        <CircleAlert className="size-8" />
      </div>
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      <p role="alert" className="mt-3 font-medium break-words text-stone-900">
        {reason}
      </p>
      {children}
      <Link to="/auth" className={buttonClasses("primary", "md", "mt-6")}>
        Gå til innlogging
      </Link>
    </>
  );
}
