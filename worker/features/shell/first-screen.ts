// The first screen rendered at the edge (decision 103): the pages visitors open directly get their
// React first screen as HTML inside #root, rendered from the same answers the page inlines
// (preload.ts), so the browser paints before any JavaScript has run and then hydrates it.
import { RENDERED_AT_ATTRIBUTE, type FirstScreenInput } from "../../../domain/first-screen";
import type { ShellWrites } from "./shell-text";

/**
 * The renderer (React and every page), loaded by the first render of the isolate: an isolate that
 * only answers the API never loads or evaluates it (and neither does a Worker test file that
 * renders no page).
 */
let renderer: Promise<typeof import("virtual:first-screen")> | undefined;

export interface FirstScreen {
  html: string;
  renderedAt: Date;
}

/** The paths whose first screen is rendered at the edge; everything else stays client-rendered. */
const EDGE_RENDERED = [/^\/$/, /^\/search\/?$/, /^\/annonse\/[^/]+\/?$/, /^\/listing\/[^/]+\/?$/, /^\/bruker\/[^/]+\/?$/];

export function isEdgeRendered(pathname: string): boolean {
  return EDGE_RENDERED.some((pattern) => pattern.test(pathname));
}

/**
 * The page's first screen, or null when it cannot be rendered here: the page then arrives as before
 * (the SPA renders it in the browser), so a render failure never costs a visitor the page.
 */
export async function renderPage(input: Omit<FirstScreenInput, "now">): Promise<FirstScreen | null> {
  const renderedAt = new Date();
  try {
    // A failed load is not kept: the next render tries again.
    renderer ??= import("virtual:first-screen").catch((err) => {
      renderer = undefined;
      throw err;
    });
    const { renderFirstScreen } = await renderer;
    const html = await renderFirstScreen({ ...input, now: renderedAt });
    return html === null ? null : { html, renderedAt };
  } catch (err) {
    console.warn("first screen: edge render failed, the browser renders the page", err);
    return null;
  }
}

/** A rendered first screen's part of the page: #root's content, marked so the browser hydrates it. */
export function firstScreenWrites(screen: FirstScreen): Pick<ShellWrites, "rootAttributes" | "rootHtml"> {
  return { rootAttributes: { [RENDERED_AT_ATTRIBUTE]: screen.renderedAt.toISOString() }, rootHtml: screen.html };
}
