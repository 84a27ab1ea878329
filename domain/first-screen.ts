// The contract between the Worker and the web's edge renderer (web/ssr/render.tsx, decision 103):
// the Worker hands over what it already preloads into the page, and gets back the HTML that goes
// into #root. Types only, so both sides are checked against the same shape.

export interface FirstScreenInput {
  /** The page's path and query, as the browser's address bar will show it. */
  url: string;
  /** The API answers inlined into the page (worker/features/shell/preload.ts), by API path. */
  api: Record<string, unknown>;
  /** The listing inlined into an /annonse/{slug} page, when there is one. */
  listing?: unknown;
  /** The instant relative times are computed from; written into the page for hydration. */
  now: Date;
}

/** Resolves to the HTML of #root, or null when the page cannot be rendered at the edge. */
export type RenderFirstScreen = (input: FirstScreenInput) => Promise<string | null>;

/** The attribute on #root that tells the browser to hydrate, and carries the render's instant. */
export const RENDERED_AT_ATTRIBUTE = "data-rendered-at";
