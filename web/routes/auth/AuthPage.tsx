import * as Tabs from "@radix-ui/react-tabs";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { safeReturnPath } from "../../../domain/return-path";
import { SignInForm } from "../../components/SignInForm";
import { PageSpinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { resendConfirmation } from "./resendConfirmation";
import { SignUpForm } from "./SignUpForm";

const tabClasses = cn(
  "min-h-11 flex-1 rounded-lg px-3 text-base font-semibold text-stone-700 transition-colors",
  "hover:text-stone-900 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm",
);

/**
 * /auth: "Logg inn" (default) and "Registrer" tabs (docs/product.md). `?next=` (a path on
 * this site only, `safeReturnPath`) is where sign-in goes back to, e.g. the listing whose "Send
 * melding" asked for it; without it, the front page.
 */
export function AuthPage() {
  useDocumentTitle("Logg inn");
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get("next")) ?? "/";

  if (session.status === "loading") return <PageSpinner />;
  // Someone who already has a session has nothing to do here (docs/product.md "Sign in and register": sent to /, or back to `next`).
  if (session.status === "signed-in") return <Navigate to={next} replace />;

  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <h1 className="text-center text-2xl font-extrabold tracking-tight text-stone-900">Velkommen til Lekebytte</h1>
      <p className="mt-2 text-center text-stone-700">Logg inn eller opprett en konto for å kjøpe, selge, gi bort og bytte leker.</p>

      <Tabs.Root defaultValue="signin" className="mt-6">
        <Tabs.List aria-label="Logg inn eller registrer deg" className="flex gap-1 rounded-xl bg-stone-200/70 p-1">
          <Tabs.Trigger value="signin" className={tabClasses}>
            Logg inn
          </Tabs.Trigger>
          <Tabs.Trigger value="signup" className={tabClasses}>
            Registrer
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="signin" className="mt-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
          <SignInForm onSignedIn={() => navigate(next, { replace: true })} onResend={resendConfirmation} />
        </Tabs.Content>
        <Tabs.Content value="signup" className="mt-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
          <SignUpForm />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
