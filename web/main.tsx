import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { RENDERED_AT_ATTRIBUTE } from "../domain/first-screen";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh, sessionQuery } from "./api/auth";
import { Root } from "./Root";
import { preloadPage } from "./router";
import "./styles.css";

const queryClient = createQueryClient();
bindSessionRefresh(queryClient);
// Who is signed in, asked before anything renders: the answer comes sooner (the controls that wait
// for it show sooner), and the components that read it find it already on its way instead of each
// starting it as they are taken over.
void queryClient.prefetchQuery(sessionQuery());

// The current page's code (the app loader has already asked for its files with the entry's).
const pageCode = preloadPage(window.location.pathname);

const container = document.getElementById("root")!;
const renderedAt = container.getAttribute(RENDERED_AT_ATTRIBUTE);
if (renderedAt) {
  // The Worker rendered this page's first screen into #root (decision 103): take it over as it is,
  // once the page's code is here. Hydrating earlier left the page's part waiting for its code, and
  // any update above it (the session's answer, the live clock) made React drop its edge HTML for the
  // spinner: typed text and presses on it were lost. As a transition the hydration runs in slices
  // that yield to the browser; a press meanwhile makes React hydrate the part pressed at once and
  // then answer it (decision 120).
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
  // Nothing on screen to keep: the first render also runs in slices, and shows its Suspense
  // fallback while the page's code is on its way.
  startTransition(() => createRoot(container).render(<Root queryClient={queryClient} />));
}
