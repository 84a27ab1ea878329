import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { GenericError, reloadPage } from "./GenericError";
import { NotFound } from "./NotFound";

/** The router's errorElement: 404 responses get the not-found screen, everything else "Noe gikk galt". */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    if (!notFound) console.error("Route error", error);
  }, [error, notFound]);

  const screen = notFound ? <NotFound /> : <GenericError onRetry={reloadPage} />;
  // The root route's error replaces the whole layout, so it brings its own main landmark.
  return standalone ? <main id="main">{screen}</main> : screen;
}
