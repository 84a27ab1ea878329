import { createRoot, hydrateRoot } from "react-dom/client";
import { RENDERED_AT_ATTRIBUTE } from "../domain/first-screen";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh } from "./api/auth";
import { Root } from "./Root";
import { preloadPage } from "./router";
import "./styles.css";

const queryClient = createQueryClient();
bindSessionRefresh(queryClient);

// Start on the current page's code at once (the Worker also preloads it with the page). Rendering does
// not wait for it: measured with Lighthouse, waiting delayed the first paint more than it saved.
void preloadPage(window.location.pathname);

const container = document.getElementById("root")!;
const renderedAt = container.getAttribute(RENDERED_AT_ATTRIBUTE);
if (renderedAt) {
  // The Worker rendered this page's first screen into #root (decision 103): take it over as it is.
  // Until the page's code arrives, React keeps the edge HTML on screen.
  hydrateRoot(container, <Root queryClient={queryClient} renderedAt={new Date(renderedAt)} />, {
    // Said out loud in every build: an edge page that differs from the browser's render is a bug.
    onRecoverableError: (error, info) =>
      console.error("Hydration: the edge HTML differs from the browser's render", error, info.componentStack),
  });
} else {
  createRoot(container).render(<Root queryClient={queryClient} />);
}
