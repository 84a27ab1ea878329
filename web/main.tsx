import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh } from "./api/session";
import { App } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import "./styles.css";

const queryClient = createQueryClient();
bindSessionRefresh(queryClient);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {/* Last line of defence: a render error outside the routes still shows "Noe gikk galt". */}
    <ErrorBoundary standalone>
      <App queryClient={queryClient} />
    </ErrorBoundary>
  </StrictMode>,
);
