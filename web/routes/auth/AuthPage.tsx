import { Suspense, useId, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { safeReturnPath } from "../../../domain/return-path";
import { SignInForm } from "../../components/SignInForm";
import { PageSpinner, Spinner } from "../../components/ui/Spinner";
import { Tabs, TabPanel } from "../../components/ui/Tabs";
import { cn } from "../../lib/cn";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSession } from "../../lib/useSession";
import { resendConfirmation } from "./resendConfirmation";
import { VippsSignIn } from "./VippsButton";
import { lazyCode } from "../../lib/missingCode";

// The sign-up form (with its form library) loads when "Registrer" is pointed at, focused or opened,
// not with the page, which opens on "Logg inn" (decision 104).
const loadSignUpForm = () => import("./SignUpForm").then((m) => ({ default: m.SignUpForm }));
const SignUpForm = lazyCode(loadSignUpForm);

type Tab = "signin" | "signup";
const TABS = [
  { id: "signin", label: "Logg inn" },
  { id: "signup", label: "Registrer" },
] as const;

const tabClasses = (selected: boolean) =>
  cn(
    "min-h-11 flex-1 rounded-lg px-3 text-base font-semibold transition-colors",
    selected ? "bg-white text-brand-800 shadow-sm" : "text-stone-700 hover:text-stone-900",
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
  const [tab, setTab] = useState<Tab>("signin");
  const tabsId = useId();

  if (session.status === "loading") return <PageSpinner />;
  // Someone who already has a session has nothing to do here (docs/product.md "Sign in and register": sent to /, or back to `next`).
  if (session.status === "signed-in") return <Navigate to={next} replace />;

  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <h1 className="text-center text-2xl font-extrabold tracking-tight text-stone-900">Velkommen til Lekebytte</h1>
      <p className="mt-2 text-center text-stone-700">Logg inn eller opprett en konto for å kjøpe, selge, gi bort og bytte leker.</p>
      <VippsSignIn next={next} />

      <Tabs
        idBase={tabsId}
        label="Logg inn eller registrer deg"
        tabs={TABS}
        value={tab}
        onChange={setTab}
        onIntent={(id) => {
          if (id === "signup") void loadSignUpForm().catch(() => undefined);
        }}
        className="mt-6 flex gap-1 rounded-xl bg-stone-200/70 p-1"
        tabClassName={tabClasses}
      />
      <TabPanel idBase={tabsId} value={tab} className="mt-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
        {tab === "signin" ? (
          <>
            <SignInForm onSignedIn={() => navigate(next, { replace: true })} onResend={resendConfirmation} />
            <p className="mt-4 text-center">
              <Link to="/auth/glemt-passord" className="font-medium text-brand-800 underline underline-offset-2">
                Glemt passord?
              </Link>
            </p>
          </>
        ) : (
          <Suspense fallback={<Spinner className="py-8" />}>
            <SignUpForm />
          </Suspense>
        )}
      </TabPanel>
    </div>
  );
}
