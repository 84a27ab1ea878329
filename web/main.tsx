import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "./api/queryClient";
import { bindSessionRefresh } from "./api/session";
import { App } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { createRouter } from "./router";
import "./styles.css";

const queryClient = createQueryClient();
bindSessionRefresh(queryClient);
const router = createRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {/* Last line of defence: a render error outside the routes still shows "Noe gikk galt". */}
    <ErrorBoundary standalone>
      <App queryClient={queryClient} router={router} />
    </ErrorBoundary>
  </StrictMode>,
);
