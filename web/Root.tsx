import type { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { App, type AppProps } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { NowProvider } from "./lib/now";

export interface RootProps {
  queryClient: QueryClient;
  /** The router: the browser's history, or the Worker's fixed address (web/ssr). */
  Router?: AppProps["Router"];
  /** When the Worker rendered this page (hydration computes relative times from it). */
  renderedAt?: Date;
}

/** The whole tree, the same in the browser and at the edge, so the edge HTML hydrates as it is. */
export function Root({ queryClient, Router, renderedAt }: RootProps) {
  return (
    <StrictMode>
      {/* Last line of defence: a render error outside the routes still shows "Noe gikk galt". */}
      <ErrorBoundary standalone>
        <NowProvider renderedAt={renderedAt}>
          <App queryClient={queryClient} Router={Router} />
        </NowProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
