import { Suspense, useSyncExternalStore } from "react";
import { toastStore } from "../lib/toastStore";
import { lazyCode } from "../lib/missingCode";

const ToastList = lazyCode(() => import("./ToastList"));

/** The toasts' live region, mounted (and its module loaded) when the first toast is raised. */
export function Toaster() {
  const requested = useSyncExternalStore(toastStore.subscribe, toastStore.requested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}
