import { Suspense, useEffect, useSyncExternalStore, type ReactNode } from "react";
import { Navigate, Outlet } from "react-router-dom";
import { toastError } from "../lib/toast";
import { signOutState } from "../lib/signOutState";
import { useSession } from "../lib/useSession";
import { PageSpinner } from "./ui/Spinner";
import { lazyCode } from "../lib/missingCode";

const SignInGate = lazyCode(() => import("./SignInGate"));

/**
 * What a visitor gets on a login-required route (docs/product.md "Routes"):
 * - "form": the sign-in form in place of the content; signing in stays on the page.
 * - "redirect": straight to /auth (the routes docs/product.md "Routes" sends there).
 * - "toast-redirect": an error toast, then /auth (/create-listing).
 */
export type SignedOutBehaviour = "form" | "redirect" | "toast-redirect";

export interface RequireAuthProps {
  signedOut?: SignedOutBehaviour;
  /** Toast text for "toast-redirect". */
  toastMessage?: string;
  children?: ReactNode;
}

export function RequireAuth({ signedOut = "form", toastMessage, children }: RequireAuthProps) {
  const session = useSession();
  const leaving = useSyncExternalStore(signOutState.subscribe, signOutState.get);

  if (session.status === "loading") return <PageSpinner label="Laster..." />;
  if (session.status === "signed-out") {
    // Signing out from this page: it is on its way to "/", not to /auth.
    if (leaving) return null;
    if (signedOut === "redirect") return <Navigate to="/auth" replace />;
    if (signedOut === "toast-redirect") return <ToastThenAuth message={toastMessage} />;
    return (
      <Suspense fallback={<PageSpinner />}>
        <SignInGate />
      </Suspense>
    );
  }
  return <>{children ?? <Outlet />}</>;
}

function ToastThenAuth({ message }: { message?: string }) {
  useEffect(() => {
    // A fixed id: React's strict mode runs effects twice, the visitor should see one toast.
    toastError("Feil", message, { id: "login-required" });
  }, [message]);
  return <Navigate to="/auth" replace />;
}
