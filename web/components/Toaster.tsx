import { lazy, Suspense, useSyncExternalStore } from "react";
import { loadSonner, sonnerRequested } from "../lib/toast";

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** sonner's Toaster with Norwegian labels, mounted when the first toast is raised. */
export function Toaster() {
  const requested = useSyncExternalStore(sonnerRequested.subscribe, sonnerRequested.get, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        richColors
        position="top-center"
        closeButton
        containerAriaLabel="Varsler"
        toastOptions={{ closeButtonAriaLabel: "Lukk varsel" }}
      />
    </Suspense>
  );
}
