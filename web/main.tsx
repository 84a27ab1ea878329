import { startTransition } from "react";
import { createRoot, hydrateRoot } from "./vendor/react-dom-client";
import { RENDERED_AT_ATTRIBUTE } from "../domain/first-screen";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh, sessionQuery } from "./api/auth";
import { Root } from "./Root";
import { preloadPage } from "./router";
import { loadRouteFilesWhenIdle } from "./lib/routeCode";
import "./styles.css";

/** The longest a page without edge HTML waits for the session's answer before its first render. */
const SESSION_WAIT_MS = 1_500;

// The app starts from a microtask (still in this task) rather than from the module's top level. A
// browser with DevTools' runtime attached (Lighthouse, Playwright) records the stack each request is
// made from, and to place a frame of a module's top level it parses that whole chunk again: 8–13 ms
// of the entry's run on a fast machine, four times that on a slow phone (decision 162).
queueMicrotask(start);

function start() {
  const queryClient = createQueryClient();
  bindSessionRefresh(queryClient);
  // Who is signed in, asked before anything renders: the answer comes sooner (the controls that wait
  // for it show sooner), and the components that read it find it already on its way instead of each
  // starting it as they are taken over.
  const session = queryClient.prefetchQuery(sessionQuery());

  // The current page's code (the app loader has already asked for its files with the entry's).
  const pageCode = preloadPage(window.location.pathname);

  // Which files each page needs, for the navigations to come.
  loadRouteFilesWhenIdle();

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
    // Nothing on screen to keep: the first render runs in slices once the page's code and the session's
    // answer are here. An answer that lands during the sliced render makes React render everything
    // that reads it again at once, in one blocking task (75 ms on a fast machine for the chat). Offline
    // the query pauses instead of answering: then the render waits no longer than SESSION_WAIT_MS.
    const sessionOrTimeout = Promise.race([session, new Promise((resolve) => setTimeout(resolve, SESSION_WAIT_MS))]);
    void Promise.all([pageCode, sessionOrTimeout]).then(() =>
      startTransition(() => createRoot(container).render(<Root queryClient={queryClient} />)),
    );
  }
}
