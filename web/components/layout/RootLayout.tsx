import { Suspense, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { ErrorBoundary } from "../ErrorBoundary";
import { PageSpinner } from "../ui/Spinner";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { signOutState } from "../../lib/signOutState";
import { useScrollRestoration } from "../../lib/useScrollRestoration";
import { useSessionKeepAlive } from "../../lib/useSessionKeepAlive";
import { DeferredAnalytics } from "../../analytics/DeferredAnalytics";
import { SESSION_PENDING_ATTRIBUTE, useSession } from "../../lib/useSession";

export function RootLayout() {
  useSessionKeepAlive();
  const location = useLocation();
  useScrollRestoration();
  // A sign-out's navigation has rendered its target: guards may redirect again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (location.key) is the trigger
  useEffect(() => signOutState.end(), [location.key]);

  // A new page whose navigation took the focused element away (a form's submit button, a link in
  // the old page): focus the main area, so Tab goes on from the new page's content instead of from
  // wherever the removed element was. Focus a page or dialog moved on purpose is left alone.
  const main = useRef<HTMLElement>(null);
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === shownPath.current) return;
    shownPath.current = location.pathname;
    const active = document.activeElement;
    if (!active || active === document.body) main.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  // The page as one element per path: this layout renders again whenever the session's query
  // changes (useSessionKeepAlive), and a new element would be new props for the page's Suspense
  // boundary. While the edge HTML is being taken over, React then hydrates that whole boundary at
  // once (a long task) instead of in slices; the page still follows every navigation through the
  // router's context.
  const page = useMemo(
    () => (
      // A render error on one page shows "Noe gikk galt" there; the next navigation resets it.
      <ErrorBoundary key={location.pathname}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
          <SessionShown />
        </Suspense>
      </ErrorBoundary>
    ),
    [location.pathname],
  );

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="fixed top-2 left-2 z-50 -translate-y-24 rounded-lg bg-brand-800 px-4 py-2 font-semibold text-white focus:translate-y-0"
      >
        Hopp til innhold
      </a>
      <Header />
      {/*
        At least a screen tall: while a page's code or data loads the main area keeps its height, so
        the footer never shows in the first screen and never jumps down when the page arrives.
      */}
      <main ref={main} id="main" tabIndex={-1} className="min-h-svh flex-1 focus:outline-none">
        {page}
      </main>
      <Footer />
      <DeferredAnalytics />
    </div>
  );
}

/**
 * Shows the controls index.html hid while a signed-in browser's session was checked, in the commit
 * that renders the page for the person signed in. It sits in the page's Suspense boundary, so while
 * that boundary is still the edge's HTML (a visitor's controls, taken over in slices after the
 * header) they stay hidden: lifted from the header, they showed for a moment on a slow phone.
 */
function SessionShown() {
  const session = useSession();
  useLayoutEffect(() => {
    if (session.status === "signed-in") document.documentElement.removeAttribute(SESSION_PENDING_ATTRIBUTE);
  }, [session.status]);
  return null;
}
