import { Outlet, ScrollRestoration, useNavigation } from "react-router-dom";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { useSessionKeepAlive } from "../../lib/useSessionKeepAlive";

export function RootLayout() {
  useSessionKeepAlive();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="fixed top-2 left-2 z-50 -translate-y-24 rounded-lg bg-brand-800 px-4 py-2 font-semibold text-white focus:translate-y-0"
      >
        Hopp til innhold
      </a>
      <NavigationProgress />
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}

/** A thin bar while the next page's code loads (the current page stays until then). */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div role="progressbar" aria-label="Laster side" className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-brand-100">
      <div className="h-full w-1/3 animate-pulse bg-brand-700" />
    </div>
  );
}
