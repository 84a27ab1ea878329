// The first screen rendered at the edge (decision 103): the Worker calls this for the pages visitors
// open directly (/, /search, /annonse/{slug}, /listing/{id}, /bruker/{id}) with the answers it
// already inlines into the page, and puts the HTML into #root; the browser hydrates it (web/main.tsx).
// The tree is the browser's own (web/Root.tsx) around a fixed address, a query client per request,
// and the render's instant for relative times. Nothing here reads a session: signed-in parts fill in
// after hydration.
import * as React from "react";
import { renderToString } from "react-dom/server";
import type { ReactNode } from "react";
import { StaticRouter } from "react-router-dom";
import type { RenderFirstScreen } from "../../domain/first-screen";
import { withPreloaded } from "../api/preloaded";
import { createQueryClient } from "../api/queryClient";
import { Root } from "../Root";
import { preloadPage } from "../router";
import { withPreloadedListing } from "../routes/listing/preloaded";
import type { ListingPage } from "../api/listings";

// `wrangler dev` bundles the Worker with esbuild's classic JSX transform (`React.createElement`, its
// fixed default), while Vite's build uses the automatic runtime: the classic calls find React here.
(globalThis as { React?: typeof React }).React ??= React;

/**
 * React marks a Suspense boundary it could not finish on the server with `<!--$!-->` (the browser
 * would then render it itself and report a recoverable error). A part of the page that is a lazy
 * module of its own (a give-away's queue panel, say) suspends the first time an isolate renders it;
 * the render started loading it, so once it has arrived the next pass is whole. A render that is
 * still unfinished after that is not used.
 */
const UNFINISHED_BOUNDARY = "<!--$!-->";
/** How long to let the modules a pass asked for arrive before the next pass (in the Worker's bundle: a tick). */
const WAITS_MS = [0, 5, 25, 100];

export const renderFirstScreen: RenderFirstScreen = async ({ url, api, listing, now }) => {
  const pathname = new URL(url, "http://edge.invalid").pathname;
  // The page's module must be here before the synchronous render pass (router.tsx `page`).
  await preloadPage(pathname);
  // One client for every pass: what the first pass took from the answers stays in its cache.
  const queryClient = createQueryClient();
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  try {
    for (const wait of [...WAITS_MS, null]) {
      const html = withPreloaded(api, () =>
        withPreloadedListing(listing as ListingPage | undefined, () =>
          renderToString(<Root queryClient={queryClient} Router={Router} renderedAt={now} />),
        ),
      );
      if (!html.includes(UNFINISHED_BOUNDARY)) return html;
      if (wait !== null) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return null;
  } finally {
    queryClient.clear();
  }
};
