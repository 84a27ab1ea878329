import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import type { ComponentType, ReactNode } from "react";
import { BrowserRouter } from "react-router-dom";
import { Toaster } from "./components/Toaster";
import { AppRoutes } from "./router";

export interface AppProps {
  queryClient: QueryClient;
  /** The router around the routes; the browser's history unless given (the edge passes its own). */
  Router?: ComponentType<{ children: ReactNode }>;
}

export function App({ queryClient, Router = BrowserRouter }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Router>
        <AppRoutes />
      </Router>
      <Toaster />
    </QueryClientProvider>
  );
}
