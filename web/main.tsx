import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { RENDERED_AT_ATTRIBUTE } from "../domain/first-screen";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh } from "./api/auth";
import { Root } from "./Root";
import { preloadPage } from "./router";
import "./styles.css";

const queryClient = createQueryClient();
bindSessionRefresh(queryClient);

// Start on the current page's code at once (the Worker also preloads it with the page).
const pageCode = preloadPage(window.location.pathname);

const container = document.getElementById("root")!;
// The first render (or hydration) is a transition: React renders it in slices of a few milliseconds
// and lets the browser paint and handle input between them, instead of one task that holds the
// main thread for the whole tree (a long task on a phone: Total Blocking Time, and the edge HTML and
// the consent banner waiting to be painted behind it; decision 104).
const renderedAt = container.getAttribute(RENDERED_AT_ATTRIBUTE);
if (renderedAt) {
  // The Worker rendered this page's first screen into #root (decision 103): take it over as it is,
  // once the page's code is here. The edge HTML is on screen meanwhile, so waiting costs no paint;
  // hydrating first would leave the page's part waiting for its code, and the session's answer
  // arriving then (the header) would make React throw the edge HTML away for the loading spinner.
  void pageCode.then(() =>
    startTransition(() => {
      hydrateRoot(container, <Root queryClient={queryClient} renderedAt={new Date(renderedAt)} />, {
        // Said out loud in every build: an edge page that differs from the browser's render is a bug.
        onRecoverableError: (error, info) =>
          console.error("Hydration: the edge HTML differs from the browser's render", error, info.componentStack),
      });
    }),
  );
} else {
  // A client-rendered page does not wait for its code: its spinner paints meanwhile (measured with
  // Lighthouse, waiting delayed the first paint more than it saved).
  const root = createRoot(container);
  startTransition(() => root.render(<Root queryClient={queryClient} />));
}
